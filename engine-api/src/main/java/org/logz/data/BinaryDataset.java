package org.logz.data;

import org.logz.base.UserException;
import org.logz.memory.HostMemory;
import org.logz.model.BaseRate;

/**
 * A set of binary vectors (examples × units), stored bit-packed. Used for base rates, unit orders
 * and reseeding; never modified.
 */
public final class BinaryDataset {
    private final String name;
    private final int size;
    private final int dimension;
    private final long[] bits;
    private final int wordsPerRow;
    private final byte[] labels;

    private BinaryDataset(String name, int size, int dimension, long[] bits, byte[] labels) {
        this.name = name;
        this.size = size;
        this.dimension = dimension;
        this.bits = bits;
        this.wordsPerRow = (dimension + 63) >>> 6;
        this.labels = labels;
    }

    /** Builds a data set from a row-major array of 0/1 values. */
    public static BinaryDataset of(String name, int size, int dimension, float[] values, byte[] labels) {
        if (size < 1 || dimension < 1) {
            throw new UserException(name + ": a data set needs at least one example and one unit");
        }
        if ((long) size * dimension != values.length) {
            throw new UserException(name + ": " + values.length + " values do not form " + size + "×" + dimension);
        }
        int words = (dimension + 63) >>> 6;
        long[] bits = new long[wordCount(name, size, words)];
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < dimension; i++) {
                float v = values[r * dimension + i];
                if (v == 1f) {
                    bits[r * words + (i >>> 6)] |= 1L << (i & 63);
                } else if (v != 0f) {
                    throw new UserException(name + ": value " + v + " at example " + r + ", unit " + i
                            + " is not binary (0 or 1)");
                }
            }
        }
        return new BinaryDataset(name, size, dimension, bits, labels == null ? null : labels.clone());
    }

    /**
     * A data set from rows packed as {@code numpy.packbits} writes them (unit i of a row is bit
     * {@code 7 - i mod 8} of byte {@code i / 8}), {@code bytesPerRow = ⌈dimension/8⌉} bytes a row.
     */
    public static BinaryDataset ofPacked(String name, int size, int dimension, byte[] packed, byte[] labels) {
        if (size < 1 || dimension < 1) {
            throw new UserException(name + ": a data set needs at least one example and one unit");
        }
        int bytesPerRow = (dimension + 7) >>> 3;
        if ((long) size * bytesPerRow != packed.length) {
            throw new UserException(name + ": " + packed.length + " bytes do not pack " + size + " rows of "
                    + dimension + " units");
        }
        int words = (dimension + 63) >>> 6;
        long[] bits = new long[wordCount(name, size, words)];
        for (int r = 0; r < size; r++) {
            long row = (long) r * bytesPerRow;
            for (int i = 0; i < dimension; i++) {
                if ((packed[(int) (row + (i >>> 3))] >>> (7 - (i & 7)) & 1) == 1) {
                    bits[r * words + (i >>> 6)] |= 1L << (i & 63);
                }
            }
        }
        return new BinaryDataset(name, size, dimension, bits, labels == null ? null : labels.clone());
    }

    /** {@code size × words} as an array length, refused (with the heap it needs checked) when it cannot be one. */
    private static int wordCount(String name, int size, int words) {
        long count = (long) size * words;
        if (count > Integer.MAX_VALUE - 16) {
            throw new UserException(name + ": " + size + " examples of " + words * 64L + " bits are more than one "
                    + "array holds");
        }
        HostMemory.requireHeap(8 * count, "the data set " + name + " (" + size + " examples)");
        return (int) count;
    }

    public String name() {
        return name;
    }

    /** Number of examples. */
    public int size() {
        return size;
    }

    /** Number of units per example. */
    public int dimension() {
        return dimension;
    }

    public boolean get(int example, int unit) {
        return (bits[example * wordsPerRow + (unit >>> 6)] >>> (unit & 63) & 1L) != 0;
    }

    /** Writes example {@code example} as 0/1 floats into {@code out[offset .. offset+dimension)}. */
    public void copyRow(int example, float[] out, int offset) {
        for (int i = 0; i < dimension; i++) {
            out[offset + i] = get(example, i) ? 1f : 0f;
        }
    }

    /** Label of an example, or -1 when the set has none. */
    public int label(int example) {
        return labels == null ? -1 : labels[example] & 0xFF;
    }

    /** Number of examples with each unit on. */
    public long[] onCounts() {
        long[] counts = new long[dimension];
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < dimension; i++) {
                if (get(r, i)) {
                    counts[i]++;
                }
            }
        }
        return counts;
    }

    /** Base rate from the smoothed means of this data set. */
    public BaseRate baseRate() {
        return BaseRate.fromCounts(onCounts(), size, "data:" + name);
    }

    /** Per-unit variance {@code p_i (1 - p_i)} of the empirical means. */
    public double[] variances() {
        long[] counts = onCounts();
        double[] v = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            double p = (double) counts[i] / size;
            v[i] = p * (1 - p);
        }
        return v;
    }

    /** The first {@code count} examples as a new data set. */
    public BinaryDataset head(int count) {
        return range(0, count);
    }

    /** Examples {@code from} to {@code from + count - 1} (as many as there are) as a new data set. */
    public BinaryDataset range(int from, int count) {
        if (from < 0 || from > size || count < 0) {
            throw new UserException("examples " + from + " to " + ((long) from + count - 1) + " of " + this
                    + " are out of range");
        }
        int n = Math.min(count, size - from);
        long[] b = java.util.Arrays.copyOfRange(bits, from * wordsPerRow, (from + n) * wordsPerRow);
        byte[] l = labels == null ? null : java.util.Arrays.copyOfRange(labels, from, from + n);
        return new BinaryDataset(name, n, dimension, b, l);
    }

    @Override
    public String toString() {
        return name + "[" + size + "×" + dimension + "]";
    }
}
