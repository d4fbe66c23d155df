package org.logz.cpu;

import org.logz.backend.ParticleVector;

/** A float64 per-particle vector on the Java heap. */
final class CpuVector implements ParticleVector {
    private final CpuBackend owner;
    private double[] values;

    CpuVector(CpuBackend owner, int length) {
        if (length < 1) {
            throw new IllegalArgumentException("a particle vector needs a positive length, got " + length);
        }
        this.owner = owner;
        this.values = new double[length];
    }

    CpuBackend owner() {
        return owner;
    }

    double[] values() {
        if (values == null) {
            throw new IllegalStateException("particle vector is closed");
        }
        return values;
    }

    void checkCount(int count) {
        checkRange(0, count);
    }

    void checkRange(int first, int count) {
        checkRange(first, count, values().length);
    }

    static void checkRange(int first, int count, int length) {
        if (first < 0 || count < 0 || (long) first + count > length) {
            throw new IllegalArgumentException("entries [" + first + ", " + ((long) first + count) + ") outside a vector of "
                    + length);
        }
    }

    @Override
    public int length() {
        return values().length;
    }

    @Override
    public void close() {
        values = null;
    }
}
