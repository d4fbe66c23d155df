package org.logz.model.gpc;

import org.logz.numeric.Cholesky;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Elliptical slice sampling (Murray, Adams &amp; MacKay 2010, Figure 2) for GP classification on its
 * tempered path ({@link TemperedGpc}): the parameter-free transition that leaves
 * {@code p_β(x) ∝ N(x; μ, G Gᵀ) exp(β ℓ(x))} invariant. The scalar steps every backend shares, so that
 * they draw the same numbers from the same Philox blocks and add in the same order:
 * <ul>
 *   <li>standard normals ξ_0 .. ξ_{rank-1} by Box-Muller on block {@code (j/2, particle, step, tag)}:
 *       {@code ρ = √(-2 log u₁)}, {@code φ = 2π u₂} with the 53-bit uniforms of words 0-1 and 2-3, and
 *       {@code ξ_2b = ρ cos φ}, {@code ξ_2b+1 = ρ sin φ} (tag {@code BASE} for base draws,
 *       {@code ELLIPSE_NORMAL} for the auxiliary draw of a transition);</li>
 *   <li>{@code G ξ} summed over the columns in order, {@code v_i = ((G_i0 ξ_0 + G_i1 ξ_1) + ...)}, each
 *       product rounded before its sum (no fused multiply-add);</li>
 *   <li>the slice height {@code log h = β ℓ(x) + log u} with u from words 2-3 of block
 *       {@code (0, particle, step, ELLIPSE)}, and the angle of proposal k from words 0-1 of block
 *       {@code (k, particle, step, ELLIPSE)}: θ_0 = 2π u, then uniform in the bracket that shrinks
 *       towards 0 after every rejection;</li>
 *   <li>proposal {@code x' = μ + (x - μ) cos θ + ν sin θ}, rounded to float32 before ℓ is evaluated, so
 *       that the state kept is the one the slice test saw and its ℓ carries over to the next
 *       transition.</li>
 * </ul>
 * After {@link #MAX_PROPOSALS} rejections the state stays where it is: the bracket has then shrunk to
 * within 2π·2^-{@value #MAX_PROPOSALS} of θ = 0 on average, where the proposal is the current state up to
 * rounding (which alone can make it fail).
 */
public final class GpcEllipse {
    /** Proposals per transition before the state is kept. */
    public static final int MAX_PROPOSALS = 100;
    private static final double TWO_PI = 2 * Math.PI;

    private GpcEllipse() {
    }

    /** Scratch for one particle's transitions: the normals, the auxiliary draw and a candidate state. */
    public static final class Scratch {
        final double[] xi;
        final double[] nu;
        final float[] candidate;
        final int[] words = new int[4];

        public Scratch(TemperedGpc model) {
            this.xi = new double[model.rank() + 1];
            this.nu = new double[model.size()];
            this.candidate = new float[model.size()];
        }
    }

    /** ξ_0 .. ξ_{count-1} of {@code (particle, step)} on stream {@code tag} into {@code out}; {@code words} is scratch. */
    static void normals(long seed, int particle, int step, int tag, double[] out, int count, int[] words) {
        for (int b = 0; 2 * b < count; b++) {
            Philox.block(seed, b, particle, step, tag, words);
            double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
            double angle = TWO_PI * Philox.toUniformDouble(words[2], words[3]);
            out[2 * b] = radius * Math.cos(angle);
            if (2 * b + 1 < count) {
                out[2 * b + 1] = radius * Math.sin(angle);
            }
        }
    }

    /** {@code out = G ξ}, column by column in order. */
    static void combine(Cholesky.Factor g, double[] columns, double[] xi, double[] out) {
        int n = g.n();
        java.util.Arrays.fill(out, 0, n, 0.0);
        for (int j = 0; j < g.rank(); j++) {
            double c = xi[j];
            int offset = j * n;
            for (int i = 0; i < n; i++) {
                out[i] += columns[offset + i] * c;
            }
        }
    }

    /** An exact draw from the base, {@code x = μ + G ξ} (tag {@code BASE}), into {@code x[offset ..]}. */
    public static void sampleBase(TemperedGpc model, double[] columns, double[] mean, float[] x, int offset, long seed,
                                  int particle, int step, Scratch scratch) {
        normals(seed, particle, step, StreamTag.BASE, scratch.xi, model.rank(), scratch.words);
        combine(model.factor(), columns, scratch.xi, scratch.nu);
        for (int i = 0; i < model.size(); i++) {
            x[offset + i] = (float) (scratch.nu[i] + mean[i]);
        }
    }

    /** The angle uniform of proposal k. */
    private static double angleUniform(long seed, int k, int particle, int step, int[] words) {
        Philox.block(seed, k, particle, step, StreamTag.ELLIPSE, words);
        return Philox.toUniformDouble(words[0], words[1]);
    }

    /** The uniform behind the slice height. */
    private static double heightUniform(long seed, int particle, int step, int[] words) {
        Philox.block(seed, 0, particle, step, StreamTag.ELLIPSE, words);
        return Philox.toUniformDouble(words[2], words[3]);
    }

    /**
     * {@code transitions} elliptical slice transitions at β of the state {@code x[offset .. offset + n)},
     * transition t on Philox step {@code step + t}, given {@code current = ℓ(x)}. Modifies x.
     *
     * @param columns the base factor's columns ({@code model.factor().columns()}, passed to avoid a copy per call)
     * @param mean    μ ({@code model.mean()})
     * @return ℓ of the final state
     */
    public static double transitions(TemperedGpc model, double[] columns, double[] mean, float[] x, int offset,
                                     double current, double beta, int transitions, long seed, int particle, int step,
                                     Scratch scratch) {
        int n = model.size();
        double l = current;
        for (int t = 0; t < transitions; t++) {
            int s = step + t;
            normals(seed, particle, s, StreamTag.ELLIPSE_NORMAL, scratch.xi, model.rank(), scratch.words);
            combine(model.factor(), columns, scratch.xi, scratch.nu);
            double logHeight = beta * l + Math.log(heightUniform(seed, particle, s, scratch.words));
            double theta = TWO_PI * angleUniform(seed, 0, particle, s, scratch.words);
            double lo = theta - TWO_PI;
            double hi = theta;
            for (int k = 1; k <= MAX_PROPOSALS; k++) {
                double c = Math.cos(theta);
                double sn = Math.sin(theta);
                double proposed = 0;
                for (int i = 0; i < n; i++) {
                    double centred = x[offset + i] - mean[i];
                    float v = (float) (mean[i] + centred * c + scratch.nu[i] * sn);
                    scratch.candidate[i] = v;
                    proposed += model.term(i, v);
                }
                proposed += model.constant();
                if (beta * proposed > logHeight) {
                    System.arraycopy(scratch.candidate, 0, x, offset, n);
                    l = proposed;
                    break;
                }
                if (theta < 0) {
                    lo = theta;
                } else {
                    hi = theta;
                }
                theta = lo + (hi - lo) * angleUniform(seed, k, particle, s, scratch.words);
            }
        }
        return l;
    }
}
