package org.logz.cpu;

import org.logz.backend.IndexVector;

/** An int32 index vector on the Java heap. */
final class CpuIndexVector implements IndexVector {
    private final CpuBackend owner;
    private int[] values;

    CpuIndexVector(CpuBackend owner, int length) {
        if (length < 1) {
            throw new IllegalArgumentException("an index vector needs a positive length, got " + length);
        }
        this.owner = owner;
        this.values = new int[length];
    }

    CpuBackend owner() {
        return owner;
    }

    int[] values() {
        if (values == null) {
            throw new IllegalStateException("index vector is closed");
        }
        return values;
    }

    void checkRange(int first, int count) {
        CpuVector.checkRange(first, count, values().length);
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
