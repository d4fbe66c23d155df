package org.logz.cuda;

import org.logz.backend.IndexVector;

/** An int32 index vector on the device. */
final class CudaIndexVector extends CudaBuffer implements IndexVector {
    private final int length;

    CudaIndexVector(CudaBackend owner, int length) {
        super(owner, 4L * CudaVector.positive(length));
        this.length = length;
    }

    long at(int index) {
        return address() + 4L * index;
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
