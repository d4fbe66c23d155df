package org.logz.resample;

import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Host reference of the resampling arithmetic that every backend reproduces (the CPU backend runs
 * it as is; {@code resample.cu} mirrors it line by line).
 *
 * <p>Weights: {@code e_r = exp(logW_r - max)} in float64. Cumulative sums are chunked so that a GPU
 * computes them in the same order: within a chunk of {@value #CHUNK} particles left to right, chunk
 * totals left to right, {@code cdf_r = (sum of earlier chunk totals) + (running sum within r's chunk)}.
 * Draw k of a multinomial uses the 53-bit uniform of words {@code 2(k mod 2), 2(k mod 2)+1} of Philox
 * block {@code (k/2, 0, step, RESAMPLE)}; systematic resampling uses draw 0 only. Ancestor of a draw
 * {@code u·total} is the smallest r with {@code cdf_r > u·total}, which always has positive weight.
 */
public final class Resampling {
    /** Particles per chunk of the cumulative sums. */
    public static final int CHUNK = 256;

    private Resampling() {
    }

    /** Draws {@code offspring} ancestors from {@code logW[0, count)} into {@code out}. */
    public static void ancestors(ResamplingScheme scheme, double[] logW, int count, int offspring, long seed, int step,
                                 int[] out) {
        if (offspring < 1 || count < 1) {
            throw new IllegalArgumentException("resampling needs at least one particle and one offspring, got " + count
                    + " and " + offspring);
        }
        double[] e = new double[count];
        double[] cdf = new double[count];
        double total = cumulative(weights(logW, count, e), count, cdf);
        switch (scheme) {
            case MULTINOMIAL -> draw(cdf, e, count, total, offspring, 0, seed, step, out, 0);
            case SYSTEMATIC -> {
                double u0 = uniform(0, seed, step);
                for (int k = 0; k < offspring; k++) {
                    out[k] = search(cdf, e, count, (u0 + k) / offspring * total);
                }
            }
            case RESIDUAL -> residual(e, count, total, offspring, seed, step, out);
        }
    }

    /**
     * {@code e_r = exp(logW_r - max)}.
     *
     * @throws IllegalArgumentException for NaN or +∞ log weights, or when every weight is zero
     */
    static double[] weights(double[] logW, int count, double[] e) {
        double max = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < count; r++) {
            double v = logW[r];
            if (Double.isNaN(v) || v == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("log weight " + r + " is " + v + "; resampling needs finite weights");
            }
            max = Math.max(max, v);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("all " + count + " weights are zero; nothing to resample from");
        }
        for (int r = 0; r < count; r++) {
            e[r] = Math.exp(logW[r] - max);
        }
        return e;
    }

    /** Chunked inclusive cumulative sum of {@code e[0, count)} into {@code cdf}; returns the total. */
    public static double cumulative(double[] e, int count, double[] cdf) {
        double offset = 0;
        for (int start = 0; start < count; start += CHUNK) {
            int end = Math.min(count, start + CHUNK);
            double run = 0;
            for (int r = start; r < end; r++) {
                run += e[r];
                cdf[r] = offset + run;
            }
            offset += run;
        }
        return offset;
    }

    /** The 53-bit uniform of resampling draw {@code k}. */
    public static double uniform(int k, long seed, int step) {
        return uniform(k, seed, step, StreamTag.RESAMPLE);
    }

    /** The 53-bit uniform of draw {@code k} in stream {@code tag}: block {@code (k/2, 0, step, tag)}. */
    public static double uniform(int k, long seed, int step, int tag) {
        int[] words = new int[4];
        Philox.block(seed, k >>> 1, 0, step, tag, words);
        int w = (k & 1) << 1;
        return Philox.toUniformDouble(words[w], words[w + 1]);
    }

    /** {@code n} multinomial draws numbered {@code first ..} into {@code out[at ..]}. */
    private static void draw(double[] cdf, double[] e, int count, double total, int n, int first, long seed, int step,
                             int[] out, int at) {
        for (int k = 0; k < n; k++) {
            out[at + k] = search(cdf, e, count, uniform(first + k, seed, step) * total);
        }
    }

    /** Smallest r with {@code cdf_r > target}; the last positive weight when rounding leaves none. */
    static int search(double[] cdf, double[] e, int count, double target) {
        int lo = 0;
        int hi = count - 1;
        if (!(cdf[hi] > target)) {
            while (e[hi] == 0) {
                hi--;
            }
            return hi;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] > target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private static void residual(double[] e, int count, double total, int offspring, long seed, int step, int[] out) {
        int[] copies = floorCopies(e, count, total, offspring, 0);
        int at = 0;
        for (int r = 0; r < count; r++) {
            for (int c = 0; c < copies[r]; c++) {
                out[at++] = r;
            }
        }
        int rest = offspring - at;
        if (rest == 0) {
            return;
        }
        double[] residual = new double[count];
        for (int r = 0; r < count; r++) {
            residual[r] = Math.max(0.0, offspring * (e[r] / total) - copies[r]);
        }
        double[] cdf = new double[count];
        double residualTotal = cumulative(residual, count, cdf);
        if (!(residualTotal > 0)) {
            // every share was an exact integer up to rounding: draw the rest from the weights themselves
            cumulative(e, count, cdf);
            draw(cdf, e, count, total, rest, 0, seed, step, out, at);
            return;
        }
        draw(cdf, residual, count, residualTotal, rest, 0, seed, step, out, at);
    }

    /**
     * {@code max(minimum, ⌊scale·e_r/total⌋)} per particle; with {@code minimum = 0} the sum never
     * exceeds {@code scale} (rounding that would push it over is taken back from the last particles).
     */
    static int[] floorCopies(double[] e, int count, double total, double scale, int minimum) {
        int[] copies = new int[count];
        long sum = 0;
        for (int r = 0; r < count; r++) {
            copies[r] = Math.max(minimum, (int) Math.floor(scale * (e[r] / total)));
            sum += copies[r];
        }
        if (minimum == 0) {
            for (int r = count - 1; r >= 0 && sum > (long) scale; r--) {
                int take = (int) Math.min(copies[r], sum - (long) scale);
                copies[r] -= take;
                sum -= take;
            }
        }
        return copies;
    }

    /**
     * ARM-anticipate's split (Fraccaro et al. §3.2): particle r becomes {@code c_r =
     * max(1, ⌊scale·w̃_r⌋)} copies, {@code w̃} from {@code logW}. Writes the copies' source indices to
     * {@code indices} (r repeated c_r times, in order) and their carried log weights
     * {@code carried_r - log c_r + offset} to {@code carriedOut}.
     *
     * @return the number of copies, {@code Σ c_r}
     */
    public static int split(double[] logW, int count, double scale, double[] carried, int[] indices,
                            double[] carriedOut) {
        double[] e = new double[count];
        double[] cdf = new double[count];
        double total = cumulative(weights(logW, count, e), count, cdf);
        int[] copies = floorCopies(e, count, total, scale, 1);
        int at = 0;
        for (int r = 0; r < count; r++) {
            double lw = carried[r] - Math.log(copies[r]);
            for (int c = 0; c < copies[r]; c++) {
                indices[at] = r;
                carriedOut[at] = lw;
                at++;
            }
        }
        return at;
    }

    /**
     * Uniform random indices in {@code [0, bound)}: {@code out[k] = ⌊u_k · bound⌋} with the
     * uniforms of stream {@code RESEED}.
     */
    public static void randomIndices(int bound, int count, long seed, int step, int[] out) {
        randomIndices(bound, 0, count, seed, step, out);
    }

    /** {@link #randomIndices(int, int, long, int, int[])} of particles {@code first .. first + count - 1} into out[0..]. */
    public static void randomIndices(int bound, int first, int count, long seed, int step, int[] out) {
        if (bound < 1) {
            throw new IllegalArgumentException("random indices need a positive bound, got " + bound);
        }
        for (int k = 0; k < count; k++) {
            out[k] = Math.min(bound - 1, (int) (uniform(first + k, seed, step, StreamTag.RESEED) * bound));
        }
    }

    /** Upper bound of {@link #split}'s copy count for {@code count} particles: {@code count + scale}. */
    public static int splitCapacity(int count, double scale) {
        return count + (int) Math.ceil(scale);
    }
}
