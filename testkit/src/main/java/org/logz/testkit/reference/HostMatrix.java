package org.logz.testkit.reference;

import org.logz.backend.ParticleMatrix;

/** A float32 row-major particle matrix on the Java heap. */
final class HostMatrix implements ParticleMatrix {
    private final ReferenceBackend owner;
    private final int rows;
    private final int cols;
    private float[] values;

    HostMatrix(ReferenceBackend owner, int rows, int cols) {
        this.owner = owner;
        this.rows = rows;
        this.cols = cols;
        this.values = new float[Math.multiplyExact(rows, cols)];
    }

    ReferenceBackend owner() {
        return owner;
    }

    float[] values() {
        if (values == null) {
            throw new IllegalStateException("particle matrix is closed");
        }
        return values;
    }

    /** Row r as float64, for kernels that do their arithmetic in float64. */
    double[] row(int r) {
        double[] out = new double[cols];
        float[] v = values();
        for (int c = 0; c < cols; c++) {
            out[c] = v[r * cols + c];
        }
        return out;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void close() {
        values = null;
    }
}
