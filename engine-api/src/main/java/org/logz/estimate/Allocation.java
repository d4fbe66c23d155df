package org.logz.estimate;

import java.util.List;

/**
 * Theorem 1 of the ARM paper (Fraccaro et al. §2.3) read from a Resample-Move run's trace: how far the run's particle
 * numbers R_n are from the allocation that, for the same total R_tot = Σ R_n, minimizes the variance of log Ẑ. With
 * {@code v̂_n = R_n / R_eff,n - 1}, the variance of the normalized weight update estimated from iteration n's ESS
 * (eq. after (7)), the optimum is {@code R_n^opt = √v̂_n / Σ √v̂ · R_tot} (eq. 6) with variance
 * {@code V_min = (Σ √v̂_n)² / R_tot} (eq. 7), against the run's own {@code V = Σ v̂_n / R_n}. The theorem assumes
 * independent, equally weighted samples at every iteration, so on a run whose moves mix slowly both variances are
 * optimistic; their ratio still says how much the allocation alone could gain.
 *
 * @param vHat              v̂_n per trace point (0 where the ESS equals R_n)
 * @param optimalParticles  R_n^opt per trace point
 * @param totalParticles    R_tot, the run's Σ R_n
 * @param minimumVariance   V_min
 * @param variance          Σ v̂_n / R_n at the run's allocation
 */
public record Allocation(double[] vHat, double[] optimalParticles, long totalParticles, double minimumVariance,
                         double variance) {
    public Allocation {
        vHat = vHat.clone();
        optimalParticles = optimalParticles.clone();
    }

    /** The allocation of {@code trace}'s run (an empty trace gives empty arrays and zero variances). */
    public static Allocation of(List<SequentialTracePoint> trace) {
        int n = trace.size();
        double[] v = new double[n];
        double rootSum = 0;
        double variance = 0;
        long total = 0;
        for (int i = 0; i < n; i++) {
            SequentialTracePoint p = trace.get(i);
            // the ESS of R weights is at most R; rounding may put it a hair above
            v[i] = p.ess() > 0 ? Math.max(0, p.particles() / p.ess() - 1) : Double.POSITIVE_INFINITY;
            rootSum += Math.sqrt(v[i]);
            variance += v[i] / p.particles();
            total += p.particles();
        }
        double[] optimal = new double[n];
        for (int i = 0; i < n; i++) {
            optimal[i] = rootSum > 0 ? Math.sqrt(v[i]) / rootSum * total : (double) total / n;
        }
        return new Allocation(v, optimal, total, total > 0 ? rootSum * rootSum / total : 0, variance);
    }

    /** A copy of v̂_n. */
    @Override
    public double[] vHat() {
        return vHat.clone();
    }

    /** A copy of R_n^opt. */
    @Override
    public double[] optimalParticles() {
        return optimalParticles.clone();
    }

    /** {@code V_min / V}: 1 where the run's allocation is Theorem 1's, smaller the further it is. */
    public double efficiency() {
        return variance > 0 ? minimumVariance / variance : 1;
    }
}
