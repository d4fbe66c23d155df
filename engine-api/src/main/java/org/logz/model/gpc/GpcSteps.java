package org.logz.model.gpc;

import org.logz.numeric.Normal;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The scalar steps of the GP classifier's sequential kernel (ARM paper, Appendix A), shared by every
 * backend's implementation so that they draw the same numbers from the same Philox blocks:
 * <ul>
 *   <li>the Gibbs sweep's case order: a Fisher-Yates shuffle of {@code [0, active)} driven by block
 *       {@code (j, 0, step, SLICE_ORDER)}, one uniform per position j, shared by all particles;</li>
 *   <li>the slice update of z_i (eq. A.2), whose two uniforms are block {@code (k, particle, step,
 *       SLICE)} words 0-1 and 2-3 as 53-bit doubles, k the position of the case in the sweep;</li>
 *   <li>the augmentation draw from {@code N(m, σ²)} truncated to {@code y z > 0} (A.3) by inversion
 *       of the upper tail, one uniform from block {@code (0, particle, step, AUGMENT)}.</li>
 * </ul>
 * A move keeps {@code v = S z} per particle (A.1: {@code μ_i = -(v_i - S_ii z_i)/S_ii}): v is computed
 * afresh at the start of every move from zero, {@code v += z_j S_j:} for j in order, and every update of z_i
 * adds {@code δ S_i:} ({@link #rankOneUpdate}), so a sweep costs m² multiply-adds in loops without a
 * reduction, which the JIT vectorizes (a fresh dot product per update ran 6× slower on 767 cases).
 * Rounding adds at most m·2⁻⁵³·max|δ S_ij| per sweep to v.
 */
public final class GpcSteps {
    private GpcSteps() {
    }

    /** {@code v += δ S_i:}, the update of {@code v = S z} when z_i moves by δ. */
    public static void rankOneUpdate(double[] s, int m, int i, double delta, double[] v) {
        int offset = i * m;
        for (int j = 0; j < m; j++) {
            v[j] += delta * s[offset + j];
        }
    }

    /** μ_i of A.1 from {@code v = S z}: {@code -(v_i - S_ii z_i) / S_ii}. */
    public static double conditionalMean(double[] v, double sii, double zi, int i) {
        return -(v[i] - sii * zi) / sii;
    }

    /** The order in which one sweep at Philox step {@code step} visits the {@code active} cases. */
    public static int[] sweepOrder(int active, long seed, int step) {
        int[] order = new int[active];
        for (int i = 0; i < active; i++) {
            order[i] = i;
        }
        int[] words = new int[4];
        for (int j = active - 1; j > 0; j--) {
            Philox.block(seed, j, 0, step, StreamTag.SLICE_ORDER, words);
            int k = (int) Math.min(j, Math.floor(Philox.toUniformDouble(words[0], words[1]) * (j + 1)));
            int t = order[j];
            order[j] = order[k];
            order[k] = t;
        }
        return order;
    }

    /**
     * One slice update of z (eq. A.2) under {@code N(μ, 1/precision)} truncated to {@code y z > 0}:
     * height {@code u1}, position {@code u2}, both in (0, 1).
     */
    public static double slice(double z, double mu, double precision, int y, double u1, double u2) {
        double d = z - mu;
        double v = Math.sqrt(d * d - 2 / precision * Math.log(u1));
        double lo = (y < 0 || mu > v) ? mu - v : 0;
        double hi = (y > 0 || mu < -v) ? mu + v : 0;
        return (hi - lo) * u2 + lo;
    }

    /** The uniforms (u1, u2) of the slice update at sweep position {@code k}; {@code words} is scratch (4 ints). */
    public static void sliceUniforms(long seed, int k, int particle, int step, int[] words, double[] out) {
        Philox.block(seed, k, particle, step, StreamTag.SLICE, words);
        out[0] = Philox.toUniformDouble(words[0], words[1]);
        out[1] = Philox.toUniformDouble(words[2], words[3]);
    }

    /** The augmentation uniform of {@code particle} at {@code step}. */
    public static double augmentUniform(long seed, int particle, int step) {
        int[] words = new int[4];
        Philox.block(seed, 0, particle, step, StreamTag.AUGMENT, words);
        return Philox.toUniformDouble(words[0], words[1]);
    }

    /**
     * A draw from {@code N(m, sd²)} truncated to {@code y z > 0} by inverting the upper tail: with
     * {@code a = -y m / sd} and {@code Q(t) = Φ(-t)}, t solves {@code log Q(t) = log u + log Q(a)} and
     * {@code z = m + y sd t}. The root is found by Newton's method on {@code log Q} (monotone,
     * {@code d log Q/dt = -φ(t)/Q(t)}) inside a bracket that bisection keeps, so it is exact to rounding
     * deep in either tail.
     */
    public static double truncatedNormal(double m, double sd, int y, double u) {
        double a = -y * m / sd;
        double target = Math.log(u) + Normal.logCdf(-a);
        double lo = a;
        double hi = Math.max(a, 0) + Math.sqrt(Math.max(0, -2 * target)) + 2;
        while (Normal.logCdf(-hi) > target) {
            hi += hi - lo + 1;
        }
        double t = 0.5 * (lo + hi);
        for (int i = 0; i < 200; i++) {
            double g = Normal.logCdf(-t) - target;
            if (g > 0) {
                lo = t;
            } else {
                hi = t;
            }
            double next = t + g / Normal.pdfOverCdf(-t);
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            if (Math.abs(next - t) <= 1e-14 * (1 + Math.abs(t))) {
                t = next;
                break;
            }
            t = next;
        }
        return m + y * sd * t;
    }
}
