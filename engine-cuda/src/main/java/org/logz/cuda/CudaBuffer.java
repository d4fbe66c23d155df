package org.logz.cuda;

/**
 * Device memory owned by one {@link CudaBackend}: an address and a size, freed on close (idempotent).
 */
abstract class CudaBuffer implements AutoCloseable {
    private final CudaBackend owner;
    private final long bytes;
    private long address;

    CudaBuffer(CudaBackend owner, long bytes) {
        this.owner = owner;
        this.bytes = bytes;
        this.address = owner.allocateZeroed(this, bytes);
    }

    CudaBackend owner() {
        return owner;
    }

    /** The device address; fails clearly once closed. */
    long address() {
        if (address == 0) {
            throw new IllegalStateException(getClass().getSimpleName().replace("Cuda", "").toLowerCase() + " is closed");
        }
        return address;
    }

    long bytes() {
        return bytes;
    }

    /** Fails clearly when the buffer is closed or {@code [first, first + count)} leaves {@code [0, length)}. */
    void checkRange(int first, int count, int length) {
        address();
        if (first < 0 || count < 0 || (long) first + count > length) {
            throw new IllegalArgumentException("entries [" + first + ", " + ((long) first + count) + ") outside a vector of "
                    + length);
        }
    }

    @Override
    public void close() {
        if (address != 0) {
            owner.release(this, address);
            address = 0;
        }
    }
}
