package org.logz.estimate.tempered;

import java.util.List;

/**
 * Carlson et al.'s delta-method approximations (eq. 16, Appendix B) of the bias and standard error of the RTS estimate
 * of log Z at β = 1, {@code log Ẑ_K = log Ẑ_K + log(r_1 ĉ_K / (r_K ĉ_1))}: with σ_1², σ_K² the variances of the
 * occupancy estimates ĉ_1 (the base) and ĉ_K and σ_1K their covariance,
 * {@code bias ≈ (σ_1²/ĉ_1² - σ_K²/ĉ_K²)/2} and {@code var ≈ σ_1²/ĉ_1² + σ_K²/ĉ_K² - 2σ_1K/(ĉ_1 ĉ_K)}. The variances
 * and covariance are those of the mean over G groups of chains, from the spread of the groups' occupancies
 * (chains are independent, consecutive states of one chain are not), so this reads the same groups as the batch-means
 * error by another route; the bias has no definite sign, unlike AIS's and RAISE's.
 *
 * @param bias   the approximate bias of the RTS log Z at β = 1
 * @param stdErr its approximate standard error
 */
public record DeltaMethod(double bias, double stdErr) {
    /** The approximations from the final run's groups of chains (at least two). */
    public static DeltaMethod of(List<LevelStatistics> groups) {
        int g = groups.size();
        if (g < 2) {
            throw new IllegalArgumentException("the delta method needs two groups of chains, got " + g);
        }
        int top = groups.get(0).levels() - 1;
        double[] base = new double[g];
        double[] target = new double[g];
        for (int i = 0; i < g; i++) {
            double[] c = groups.get(i).occupancy();
            base[i] = c[0];
            target[i] = c[top];
        }
        double c1 = mean(base);
        double cK = mean(target);
        double var1 = covariance(base, base) / g;
        double varK = covariance(target, target) / g;
        double cov = covariance(base, target) / g;
        double bias = 0.5 * (var1 / (c1 * c1) - varK / (cK * cK));
        double variance = var1 / (c1 * c1) + varK / (cK * cK) - 2 * cov / (c1 * cK);
        return new DeltaMethod(bias, Math.sqrt(Math.max(0, variance)));
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    /** The sample covariance, n - 1 in the denominator. */
    private static double covariance(double[] x, double[] y) {
        double mx = mean(x);
        double my = mean(y);
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += (x[i] - mx) * (y[i] - my);
        }
        return s / (x.length - 1);
    }
}
