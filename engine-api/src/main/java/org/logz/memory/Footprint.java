package org.logz.memory;

import org.logz.base.UserException;

/**
 * What a run will allocate, estimated before it allocates anything: particle matrices and per-particle
 * vectors on the backend, and arrays on the JVM heap (schedules, traces, downloaded weights, stored
 * samples, results). Estimates count the large terms only; they are meant to tell "fits" from
 * "cannot fit", not to the byte.
 *
 * @param matrixBytes particle matrices (states, pre-activations, scratch)
 * @param vectorBytes per-particle and per-level vectors (log weights, temperatures, level values)
 * @param heapBytes   host arrays on the JVM heap
 */
public record Footprint(long matrixBytes, long vectorBytes, long heapBytes) {
    public static final Footprint NONE = new Footprint(0, 0, 0);

    public Footprint {
        if (matrixBytes < 0 || vectorBytes < 0 || heapBytes < 0) {
            throw new UserException("a footprint cannot be negative (or its size overflowed a long)");
        }
    }

    /** Host arrays only. */
    public static Footprint heap(long bytes) {
        return new Footprint(0, 0, bytes);
    }

    /** Matrices and vectors together (saturating): what a device that holds both needs. */
    public long deviceBytes() {
        return add(matrixBytes, vectorBytes);
    }

    /** Both together, saturating instead of overflowing. */
    public Footprint plus(Footprint other) {
        return new Footprint(add(matrixBytes, other.matrixBytes), add(vectorBytes, other.vectorBytes),
                add(heapBytes, other.heapBytes));
    }

    /** The larger of each part: for phases that run one after the other and free in between. */
    public Footprint max(Footprint other) {
        return new Footprint(Math.max(matrixBytes, other.matrixBytes), Math.max(vectorBytes, other.vectorBytes),
                Math.max(heapBytes, other.heapBytes));
    }

    /** {@code count · bytes}, saturating at Long.MAX_VALUE: sizes from the command line can be absurd. */
    public static long times(long count, long bytes) {
        if (count < 0 || bytes < 0) {
            throw new UserException("negative size " + count + " × " + bytes);
        }
        return bytes != 0 && count > Long.MAX_VALUE / bytes ? Long.MAX_VALUE : count * bytes;
    }

    private static long add(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }
}
