package org.logz.cuda;

import org.logz.backend.IndexVector;

/**
 * An int32 index vector on the device, with what the backend knows of its values: every entry lies in
 * {@code [0, bound)}, or the bound is {@link #UNKNOWN}. The backend's own writes (resampling draws,
 * sequences, gathers) and uploads (checked on the host as they pass) keep the bound, so a gather
 * through indices the backend produced needs no device-side range check and no read-back; only
 * indices of unknown range are checked on the device.
 */
final class CudaIndexVector extends CudaBuffer implements IndexVector {
    static final int UNKNOWN = -1;
    private final int length;
    /** Allocation zero-fills, so a fresh vector's entries lie in [0, 1). */
    private int bound = 1;

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

    /** Every entry lies in {@code [0, bound())}, or {@link #UNKNOWN}. */
    int bound() {
        return bound;
    }

    /**
     * Records a write of values in {@code [0, valuesBound)} ({@link #UNKNOWN} when not known) to
     * entries {@code [first, first + count)}.
     */
    void wrote(int first, int count, long valuesBound) {
        int known = valuesBound < 0 || valuesBound > Integer.MAX_VALUE ? UNKNOWN : (int) valuesBound;
        if (first == 0 && count >= length) {
            bound = known;
        } else if (count > 0) {
            bound = bound == UNKNOWN || known == UNKNOWN ? UNKNOWN : Math.max(bound, known);
        }
    }

    @Override
    public int length() {
        address();
        return length;
    }
}
