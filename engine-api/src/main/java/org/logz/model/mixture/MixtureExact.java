package org.logz.model.mixture;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * The exact evidence of a {@link Mixture} for small n: the sum over the K^n allocations z of the observations to
 * components, {@code Z = Σ_z Π_i w_{z_i} Π_k Π_j ∫ Π_{i: z_i = k} N(y_ij; μ, σ²) N(μ; m_j, s²) dμ}, each factor
 * conjugate Gaussian: the n_k values {@code y_·j} of component k are jointly {@code N(m_j 1, σ² I + s² 1 1ᵀ)}, whose
 * determinant is {@code σ^{2(n_k - 1)} (σ² + n_k s²)} and whose inverse is {@code (I - s²/(σ² + n_k s²) 1 1ᵀ)/σ²}, so
 * with {@code S1 = Σ (y - m_j)} and {@code S2 = Σ (y - m_j)²}:
 * {@code log = -n_k/2 log 2π - (n_k - 1) log σ - ½ log(σ² + n_k s²) - S2/(2σ²) + s² S1²/(2σ² (σ² + n_k s²))}.
 * The allocations' terms are summed in log space with a running maximum.
 */
public final class MixtureExact {
    /** The most allocations summed (K^n ≤ 2^20: a second or two). */
    public static final long MAX_ALLOCATIONS = 1L << 20;
    private static final double LOG_2PI = Math.log(2 * Math.PI);

    private MixtureExact() {
    }

    /** Whether the sum over allocations is small enough to do. */
    public static boolean feasible(Mixture m) {
        return allocations(m) <= MAX_ALLOCATIONS;
    }

    /** K^n, saturating above {@link #MAX_ALLOCATIONS}. */
    public static long allocations(Mixture m) {
        long count = 1;
        for (int i = 0; i < m.points() && count <= MAX_ALLOCATIONS; i++) {
            count *= m.components();
        }
        return count;
    }

    /** log Z, or empty where K^n exceeds {@link #MAX_ALLOCATIONS}. */
    public static OptionalDouble logEvidence(Mixture m) {
        if (!feasible(m)) {
            return OptionalDouble.empty();
        }
        int n = m.points();
        int kk = m.components();
        int d = m.dimension();
        int[] z = new int[n];
        int[] counts = new int[kk];
        double[] s1 = new double[kk * d];
        double[] s2 = new double[kk * d];
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        long total = allocations(m);
        for (long a = 0; a < total; a++) {
            Arrays.fill(counts, 0);
            Arrays.fill(s1, 0);
            Arrays.fill(s2, 0);
            double term = 0;
            for (int i = 0; i < n; i++) {
                int k = z[i];
                term += m.logWeight(k);
                counts[k]++;
                for (int j = 0; j < d; j++) {
                    double r = m.y(i, j) - m.priorMean(j);
                    s1[k * d + j] += r;
                    s2[k * d + j] += r * r;
                }
            }
            for (int k = 0; k < kk; k++) {
                for (int j = 0; j < d; j++) {
                    term += logMarginal(counts[k], s1[k * d + j], s2[k * d + j], m.sigma(), m.priorScale());
                }
            }
            if (term > max) {
                sum = sum * Math.exp(max - term) + 1;
                max = term;
            } else {
                sum += Math.exp(term - max);
            }
            next(z, kk);
        }
        return OptionalDouble.of(max + Math.log(sum));
    }

    /** The log marginal density of c values with sums S1, S2 about the prior mean (class comment); 0 for none. */
    static double logMarginal(int c, double s1, double s2, double sigma, double s) {
        if (c == 0) {
            return 0;
        }
        double v = sigma * sigma;
        double big = v + c * s * s;
        return -0.5 * c * LOG_2PI - (c - 1) * Math.log(sigma) - 0.5 * Math.log(big) - s2 / (2 * v)
                + s * s * s1 * s1 / (2 * v * big);
    }

    /** The next allocation in base-K counting order. */
    private static void next(int[] z, int kk) {
        for (int i = 0; i < z.length; i++) {
            if (++z[i] < kk) {
                return;
            }
            z[i] = 0;
        }
    }
}
