package org.logz.testkit.reference;

import org.logz.backend.ParticleVector;

/** A float64 per-particle vector on the Java heap. */
final class HostVector implements ParticleVector {
    private final ReferenceBackend owner;
    private final int length;
    private double[] values;

    HostVector(ReferenceBackend owner, int length) {
        this.owner = owner;
        this.length = length;
        this.values = new double[length];
    }

    ReferenceBackend owner() {
        return owner;
    }

    double[] values() {
        if (values == null) {
            throw new IllegalStateException("particle vector is closed");
        }
        return values;
    }

    @Override
    public int length() {
        values();
        return length;
    }

    @Override
    public void close() {
        values = null;
    }
}
