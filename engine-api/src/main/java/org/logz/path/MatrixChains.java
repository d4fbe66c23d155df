package org.logz.path;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;

/**
 * What every path's chains share: their states are the first {@code count} rows of one backend
 * matrix, loaded and read back whole, freed on close.
 */
abstract class MatrixChains implements TemperedPath.Chains {
    protected final ParticleBackend backend;
    protected final ParticleMatrix x;
    protected final int count;

    MatrixChains(ParticleBackend backend, int count, int dimension) {
        this.backend = backend;
        this.count = count;
        this.x = backend.matrix(count, dimension);
    }

    @Override
    public int count() {
        return count;
    }

    @Override
    public void load(float[] states) {
        if (states.length != (long) count * x.cols()) {
            throw new IllegalArgumentException("expected " + count + "×" + x.cols() + " state values, got " + states.length);
        }
        backend.upload(states, count, x);
    }

    @Override
    public float[] states() {
        return backend.download(x, count);
    }

    @Override
    public void close() {
        x.close();
    }
}
