package org.logz.cpu;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.model.mixture.Mixture;

/**
 * A Gaussian mixture's point likelihoods on the CPU: the model's own scalar step ({@link Mixture#logLikelihood}) for
 * every particle and point, tiles of particles in parallel on the backend's threads, points in the order given.
 */
final class CpuMixtureKernel implements PointLikelihoodKernel {
    private final CpuBackend backend;
    private final Mixture model;
    private boolean closed;

    CpuMixtureKernel(CpuBackend backend, Mixture model) {
        this.backend = backend;
        this.model = model;
    }

    @Override
    public void logLikelihoods(ParticleMatrix theta, int count, IndexVector points, int from, int to, ParticleVector out) {
        if (closed) {
            throw new IllegalStateException("mixture kernel is closed");
        }
        CpuMatrix tm = backend.own(theta);
        int[] order = backend.own(points).values();
        double[] values = backend.own(out).values();
        int d = model.parameters();
        backend.forEachTile(0, count, (t, first, last) -> {
            float[] row = new float[tm.cols()];
            double[] th = new double[d];
            for (int r = first; r < last; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                tm.readRow(particle, row, 0);
                for (int k = 0; k < d; k++) {
                    th[k] = row[k];
                }
                double sum = 0;
                for (int k = from; k < to; k++) {
                    sum += model.logLikelihood(order[k], th);
                }
                values[particle] = sum;
            }
        });
    }

    @Override
    public void close() {
        closed = true;
    }
}
