package org.logz.cuda;

import org.logz.backend.ParticleVector;

/** A float64 per-particle vector on the device. */
final class CudaVector extends CudaBuffer implements ParticleVector {
    private final int length;

    CudaVector(CudaBackend owner, int length) {
        super(owner, 8L * positive(length));
        this.length = length;
    }

    static int positive(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("a device vector needs a positive length, got " + length);
        }
        return length;
    }

    long at(int index) {
        return address() + 8L * index;
    }

    void checkRange(int first, int count) {
        checkRange(first, count, length);
    }

    @Override
    public int length() {
        address();
        return length;
    }
}
