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
        if (count < 0 || count > values().length) {
            throw new IllegalArgumentException("count " + count + " outside the vector's " + values.length + " entries");
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
