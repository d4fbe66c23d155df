package org.logz.model.rbm;

import java.util.stream.IntStream;

import org.logz.numeric.LogSpace;

/**
 * The host half of an RBM's likelihood gradient: for binary states (data rows or sampled chains), the hidden
 * probabilities {@code p = σ(b + xW)} and the sums {@code Σ x pᵀ}, {@code Σ x} and {@code Σ p} that the
 * positive and negative phases subtract. The states are sparse (11% of MNIST's pixels are on), so both products run over
 * each state's active visible units only. Hidden units go to threads in blocks of {@value #BLOCK} columns, each block
 * summing the states in order, so the result does not depend on the thread count.
 */
public final class Gradient {
    private static final int BLOCK = 64;

    private Gradient() {
    }

    /**
     * Adds {@code sign} times the sums of {@code count} states (row-major in {@code x}) to {@code gw}, {@code ga} and
     * {@code gb}.
     */
    public static void accumulate(float[] x, int count, int visible, int hidden, float[] w, float[] b, float sign, float[] gw,
                           float[] ga, float[] gb) {
        int[][] active = new int[count][];
        for (int e = 0; e < count; e++) {
            active[e] = active(x, e * visible, visible);
            for (int i : active[e]) {
                ga[i] += sign;
            }
        }
        int blocks = (hidden + BLOCK - 1) / BLOCK;
        IntStream.range(0, blocks).parallel().forEach(block -> {
            int from = block * BLOCK;
            int to = Math.min(hidden, from + BLOCK);
            double[] field = new double[to - from];
            for (int e = 0; e < count; e++) {
                for (int j = from; j < to; j++) {
                    field[j - from] = b[j];
                }
                for (int i : active[e]) {
                    int row = i * hidden;
                    for (int j = from; j < to; j++) {
                        field[j - from] += w[row + j];
                    }
                }
                for (int j = from; j < to; j++) {
                    float p = sign * (float) LogSpace.sigmoid(field[j - from]);
                    field[j - from] = p;
                    gb[j] += p;
                }
                for (int i : active[e]) {
                    int row = i * hidden;
                    for (int j = from; j < to; j++) {
                        gw[row + j] += (float) field[j - from];
                    }
                }
            }
        });
    }

    /** The units of state {@code x[offset .. offset + visible)} that are on. */
    private static int[] active(float[] x, int offset, int visible) {
        int on = 0;
        for (int i = 0; i < visible; i++) {
            if (x[offset + i] != 0f) {
                on++;
            }
        }
        int[] units = new int[on];
        int n = 0;
        for (int i = 0; i < visible; i++) {
            if (x[offset + i] != 0f) {
                units[n++] = i;
            }
        }
        return units;
    }
}
