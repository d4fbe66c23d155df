package org.logz.testkit.reference;

import org.logz.backend.IndexVector;

/** An int32 index vector on the Java heap. */
final class HostIndices implements IndexVector {
    private final ReferenceBackend owner;
    private final int length;
    private int[] values;

    HostIndices(ReferenceBackend owner, int length) {
        this.owner = owner;
        this.length = length;
        this.values = new int[length];
    }

    ReferenceBackend owner() {
        return owner;
    }

    int[] values() {
        if (values == null) {
            throw new IllegalStateException("index vector is closed");
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
