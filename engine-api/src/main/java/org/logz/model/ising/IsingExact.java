package org.logz.model.ising;

import org.logz.base.UserException;

/**
 * Exact log Z of the finite L × L Ising torus, {@code Z = Σ_x exp(β Σ_<ij> x_i x_j)}, by Kaufman's
 * formula (Phys. Rev. 76, 1232, 1949; in the form of Beale, PRL 76, 78, 1996):
 * <pre>  Z = ½ (2 sinh 2K)^{L²/2} (Z_1 + Z_2 + Z_3 + Z_4),   K = β,
 *   Z_1 = Π_{r=0}^{L-1} 2 cosh(L γ_{2r+1}/2),  Z_2 = Π 2 sinh(L γ_{2r+1}/2),
 *   Z_3 = Π 2 cosh(L γ_{2r}/2),              Z_4 = Π 2 sinh(L γ_{2r}/2),
 *   cosh γ_l = cosh 2K coth 2K - cos(lπ/L) (l ≥ 1),   γ_0 = 2K + log tanh K,</pre>
 * evaluated in float64 log space with the signs of the sinh products (Z_4 is negative above the
 * critical point, where γ_0 &lt; 0).
 */
public final class IsingExact {
    private IsingExact() {
    }

    /** {@code log Z} at inverse temperature {@code beta > 0}. */
    public static double logZ(Ising model, double beta) {
        if (!(beta > 0) || !Double.isFinite(beta)) {
            throw new UserException("Kaufman's formula needs β > 0, got " + beta);
        }
        int l = model.size();
        double k = beta;
        double[] gamma = new double[2 * l];
        double c = Math.cosh(2 * k) / Math.tanh(2 * k);
        for (int i = 1; i < 2 * l; i++) {
            gamma[i] = acosh(c - Math.cos(i * Math.PI / l));
        }
        gamma[0] = 2 * k + Math.log(Math.tanh(k));
        // log|Z_i| and sign(Z_i)
        double[] logTerm = new double[4];
        int[] sign = {1, 1, 1, 1};
        for (int r = 0; r < l; r++) {
            double odd = l * gamma[2 * r + 1] / 2;
            double even = l * gamma[2 * r] / 2;
            logTerm[0] += logTwoCosh(odd);
            logTerm[1] += logAbsTwoSinh(odd);
            sign[1] *= sign(odd);
            logTerm[2] += logTwoCosh(even);
            logTerm[3] += logAbsTwoSinh(even);
            sign[3] *= sign(even);
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 4; i++) {
            if (sign[i] != 0) {
                max = Math.max(max, logTerm[i]);
            }
        }
        double sum = 0;
        for (int i = 0; i < 4; i++) {
            sum += sign[i] * Math.exp(logTerm[i] - max);
        }
        return -Math.log(2) + (l * (double) l / 2) * Math.log(2 * Math.sinh(2 * k)) + max + Math.log(sum);
    }

    private static double acosh(double x) {
        return Math.log(x + Math.sqrt(x * x - 1));
    }

    /** log(2 cosh y) = |y| + log1p(e^{-2|y|}). */
    private static double logTwoCosh(double y) {
        double a = Math.abs(y);
        return a + Math.log1p(Math.exp(-2 * a));
    }

    /** log|2 sinh y| = |y| + log1p(-e^{-2|y|}); -∞ at 0. */
    private static double logAbsTwoSinh(double y) {
        double a = Math.abs(y);
        return a + Math.log1p(-Math.exp(-2 * a));
    }

    private static int sign(double y) {
        return y > 0 ? 1 : (y < 0 ? -1 : 0);
    }
}
