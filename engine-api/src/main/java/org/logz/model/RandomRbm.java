package org.logz.model;

import org.logz.random.Philox;

/** Reproducible random RBMs for tests and benchmarks. */
public final class RandomRbm {
    /** Philox stream tag of the parameters (outside the tags of {@link org.logz.random.StreamTag}). */
    private static final int PARAMETER_STREAM = 99;

    private RandomRbm() {
    }

    /**
     * An RBM with weights uniform in [-scale, scale] and biases uniform in [-scale/2, scale/2],
     * drawn from Philox keyed by {@code seed}.
     */
    public static Rbm create(int visible, int hidden, double scale, long seed) {
        float[] w = new float[visible * hidden];
        float[] a = new float[visible];
        float[] b = new float[hidden];
        fill(w, scale, seed, 0);
        fill(a, scale / 2, seed, 1);
        fill(b, scale / 2, seed, 2);
        return new Rbm(visible, hidden, w, a, b);
    }

    private static void fill(float[] v, double scale, long seed, int array) {
        int[] words = new int[4];
        for (int i = 0; i < v.length; i++) {
            if ((i & 3) == 0) {
                Philox.block(seed, i >>> 2, array, 0, PARAMETER_STREAM, words);
            }
            v[i] = (float) (scale * (2.0 * Philox.toUniform(words[i & 3]) - 1.0));
        }
    }
}
