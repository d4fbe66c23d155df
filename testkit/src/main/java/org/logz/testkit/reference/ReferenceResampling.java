package org.logz.testkit.reference;

import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.resample.ResamplingScheme;

/**
 * The resampling schemes written once more from their specification in DESIGN §3, independently of
 * {@link org.logz.resample.Resampling} (which the CPU backend runs), so that the contract tests compare
 * two implementations instead of one with itself. Normalized weights {@code e_r = exp(logW_r - max)};
 * cumulative sums in chunks of 256 (running sum within a chunk, chunk totals carried left to right);
 * draw k uses the 53-bit uniform of words {@code 2(k mod 2), 2(k mod 2)+1} of Philox block
 * {@code (k/2, 0, step, tag)}; the ancestor of a target t is the first particle whose cumulative sum
 * exceeds t, or the last particle of positive weight when rounding leaves none.
 */
final class ReferenceResampling {
    private static final int CHUNK = 256;

    private ReferenceResampling() {
    }

    static void ancestors(ResamplingScheme scheme, double[] logW, int count, int offspring, long seed, int step, int[] out) {
        double[] e = normalized(logW, count);
        double[] cdf = cumulative(e);
        double total = cdf[count - 1];
        if (scheme == ResamplingScheme.MULTINOMIAL) {
            for (int k = 0; k < offspring; k++) {
                out[k] = firstAbove(cdf, e, uniform(k, seed, step, StreamTag.RESAMPLE) * total);
            }
        } else if (scheme == ResamplingScheme.SYSTEMATIC) {
            double u = uniform(0, seed, step, StreamTag.RESAMPLE);
            for (int k = 0; k < offspring; k++) {
                out[k] = firstAbove(cdf, e, (u + k) / offspring * total);
            }
        } else {
            residual(e, total, offspring, seed, step, out);
        }
    }

    /** Deterministic copies {@code ⌊M·w̃_r⌋} (trimmed from the last particles if rounding overshoots M), the rest multinomial on the remainders. */
    private static void residual(double[] e, double total, int offspring, long seed, int step, int[] out) {
        int count = e.length;
        int[] copies = new int[count];
        long assigned = 0;
        for (int r = 0; r < count; r++) {
            copies[r] = (int) Math.floor(offspring * (e[r] / total));
            assigned += copies[r];
        }
        for (int r = count - 1; r >= 0 && assigned > offspring; r--) {
            int back = (int) Math.min(copies[r], assigned - offspring);
            copies[r] -= back;
            assigned -= back;
        }
        int filled = 0;
        for (int r = 0; r < count; r++) {
            for (int c = 0; c < copies[r]; c++) {
                out[filled++] = r;
            }
        }
        double[] remainder = new double[count];
        for (int r = 0; r < count; r++) {
            remainder[r] = Math.max(0.0, offspring * (e[r] / total) - copies[r]);
        }
        double[] remainderCdf = cumulative(remainder);
        boolean useRemainders = remainderCdf[count - 1] > 0;
        double[] w = useRemainders ? remainder : e;
        double[] cdf = useRemainders ? remainderCdf : cumulative(e);
        for (int k = 0; filled < offspring; k++) {
            out[filled++] = firstAbove(cdf, w, uniform(k, seed, step, StreamTag.RESAMPLE) * cdf[count - 1]);
        }
    }

    static int split(double[] logW, int count, double scale, double[] carried, int[] indices, double[] carriedOut) {
        double[] e = normalized(logW, count);
        double total = cumulative(e)[count - 1];
        int filled = 0;
        for (int r = 0; r < count; r++) {
            int copies = Math.max(1, (int) Math.floor(scale * (e[r] / total)));
            for (int c = 0; c < copies; c++) {
                indices[filled] = r;
                carriedOut[filled] = carried[r] - Math.log(copies);
                filled++;
            }
        }
        return filled;
    }

    static void randomIndices(int bound, int count, long seed, int step, int[] out) {
        for (int k = 0; k < count; k++) {
            out[k] = Math.min(bound - 1, (int) (uniform(k, seed, step, StreamTag.RESEED) * bound));
        }
    }

    private static double[] normalized(double[] logW, int count) {
        double max = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < count; r++) {
            if (Double.isNaN(logW[r]) || logW[r] == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("log weight " + r + " is " + logW[r] + "; resampling needs finite weights");
            }
            max = Math.max(max, logW[r]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("all " + count + " weights are zero; nothing to resample from");
        }
        double[] e = new double[count];
        for (int r = 0; r < count; r++) {
            e[r] = Math.exp(logW[r] - max);
        }
        return e;
    }

    private static double[] cumulative(double[] w) {
        double[] cdf = new double[w.length];
        double carried = 0;
        for (int chunk = 0; chunk < w.length; chunk += CHUNK) {
            double running = 0;
            for (int r = chunk; r < Math.min(w.length, chunk + CHUNK); r++) {
                running += w[r];
                cdf[r] = carried + running;
            }
            carried += running;
        }
        return cdf;
    }

    /** The first r with {@code cdf[r] > target}; the last r of positive weight when none is. */
    private static int firstAbove(double[] cdf, double[] w, double target) {
        int last = cdf.length - 1;
        if (!(cdf[last] > target)) {
            while (w[last] == 0) {
                last--;
            }
            return last;
        }
        int below = -1;
        int above = last;
        while (above - below > 1) {
            int probe = below + (above - below) / 2;
            if (cdf[probe] > target) {
                above = probe;
            } else {
                below = probe;
            }
        }
        return above;
    }

    /** The 53-bit uniform of draw k of stream {@code tag}. */
    static double uniform(int k, long seed, int step, int tag) {
        int[] words = new int[4];
        Philox.block(seed, k / 2, 0, step, tag, words);
        int w = 2 * (k % 2);
        return Philox.toUniformDouble(words[w], words[w + 1]);
    }
}
