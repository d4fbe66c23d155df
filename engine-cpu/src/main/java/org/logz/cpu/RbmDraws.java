package org.logz.cpu;

import org.logz.random.Philox;

/**
 * What an RBM draw is, in Java (DESIGN §4): the uniform of unit k of a particle at a step is word {@code k % 4} of
 * Philox block {@code (k / 4, particle, step, tag)}, and the unit is on when {@code uniform < p}, with p the float32
 * logistic {@code 1f / (1f + (float) Math.exp(-z))} of a sweep or the float64 expression of an AIS step. The native
 * kernels decide every draw they can prove and leave the rest to these.
 */
final class RbmDraws {
    private RbmDraws() {
    }

    /**
     * {@code uniform < p ? 1 : 0} without a branch (the outcome is a coin flip, which a branch predictor cannot
     * learn): the sign bit of {@code uniform - p}, which is set exactly when {@code uniform < p}, since rounding never
     * changes the sign of a difference.
     */
    static float bernoulli(float uniform, float p) {
        return Float.floatToRawIntBits(uniform - p) >>> 31;
    }

    /** {@code 1/(1 + e^{-z})} in float32; saturates to exactly 0 or 1, never NaN for non-NaN z. */
    static float logistic(float z) {
        return 1f / (1f + (float) Math.exp(-z));
    }

    /** The hidden probability of an AIS step at pre-activation {@code zTo = β·u}, from the float64 e^{-|z|}. */
    static float annealProbability(double zTo) {
        double t = Math.exp(-Math.abs(zTo));
        return (float) (zTo >= 0 ? 1.0 / (1.0 + t) : t / (1.0 + t));
    }

    /** The uniforms of one particle's units 0 .. out.length-1 for one draw. */
    static void uniforms(long seed, int particle, int step, int tag, float[] out) {
        int[] words = new int[4];
        int units = out.length;
        for (int i = 0; i < units; i += 4) {
            Philox.block(seed, i >>> 2, particle, step, tag, words);
            for (int q = 0; q < 4 && i + q < units; q++) {
                out[i + q] = Philox.toUniform(words[q]);
            }
        }
    }

    /** The uniform of one unit. */
    static float uniform(long seed, int particle, int step, int tag, int unit) {
        int[] words = new int[4];
        Philox.block(seed, unit >>> 2, particle, step, tag, words);
        return Philox.toUniform(words[unit & 3]);
    }
}
