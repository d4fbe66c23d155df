package org.logz.estimate.work;

import java.util.Arrays;

import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.numeric.LogSpace;
import org.logz.random.GammaDraw;
import org.logz.random.StreamTag;

/**
 * Habeck's Bayesian histogram estimator (2017, §5.3, Fig. 4B) run as a Gibbs sampler: a posterior of log Z rather
 * than a point. The forward work values are draws from the density of states g at inverse temperature 0 and the
 * reverse ones (sign-flipped) at 1, so bin b's masses g_b have the likelihood
 * {@code Π_b g_b^{H_b} Z_0(g)^{-N_f} Z_1(g)^{-N_r}}, {@code Z_β(g) = Σ_b g_b e^{-β E_b}}. With the scale-free prior
 * {@code Π 1/g_b} (flat in log g, whose posterior mode is the maximum-likelihood estimate, {@link WorkHistogram}) and one
 * auxiliary λ_k per ensemble ({@code Z^{-N} = ∫ λ^{N-1} e^{-λZ} dλ / Γ(N)}) both conditionals are Gamma:
 * {@code λ_k | g ~ Gamma(N_k, Z_k(g))} and {@code g_b | λ ~ Gamma(H_b, λ_0 + λ_1 e^{-E_b})}. Each sweep draws both,
 * renormalizes g (the target is invariant under g → cg, λ → λ/c, and the sweep equivariant, so the law of the
 * normalized chain is unchanged), and records {@code log Z_1(g) - log Z_0(g)}. The paper states the sampler in one
 * sentence and defers its details to a supplement not in hand; this is the standard data augmentation of that
 * likelihood, checked against a posterior computed by quadrature and by the coverage of its intervals.
 *
 * <p>The chain starts at the maximum-likelihood masses. Energies are shifted by the ML log ratio so that
 * {@code e^{-E}} stays near 1 where the two ensembles meet. Draws are keyed by (bin, sweep) under
 * {@link StreamTag#HISTOGRAM_GIBBS}, the two λ's by indices past the bins.
 */
public final class HistogramGibbs {
    /**
     * @param binWidth width of the bins of the pooled work (0: one per value, eq. 15), for this and the ML histogram
     * @param samples  sweeps kept after burn-in (at least 20)
     * @param burnIn   sweeps discarded first
     */
    public record Settings(double binWidth, int samples, int burnIn) {
        /** 2000 draws after 200 of burn-in, binless. */
        public static final Settings DEFAULT = new Settings(0, 2000, 200);

        public Settings {
            if (!(binWidth >= 0) || !Double.isFinite(binWidth)) {
                throw new UserException("--bin-width must be finite and at least 0, got " + binWidth);
            }
            if (samples < 20 || samples > 10_000_000) {
                throw new UserException("--gibbs-samples must lie in [20, 10^7], got " + samples);
            }
            if (burnIn < 0 || burnIn > 10_000_000) {
                throw new UserException("--gibbs-burn-in must lie in [0, 10^7], got " + burnIn);
            }
        }
    }

    /**
     * The posterior of {@code log(Z_1/Z_0)}.
     *
     * @param mean   posterior mean (the estimate)
     * @param sd     posterior standard deviation (its error)
     * @param median posterior median
     * @param lower  the 2.5% quantile
     * @param upper  the 97.5% quantile
     * @param ess    effective draws, by batch means over 20 batches
     * @param bins   bins of the density of states
     * @param draws  the kept draws in order
     */
    public record Posterior(double mean, double sd, double median, double lower, double upper, double ess, int bins,
                            double[] draws) {
        public Posterior {
            draws = draws.clone();
        }

        @Override
        public double[] draws() {
            return draws.clone();
        }

        /** The reading the work estimators list: the posterior mean with the posterior standard deviation. */
        public WorkEstimate estimate() {
            return WorkEstimate.of(Method.HISTOGRAM_GIBBS, mean, sd);
        }
    }

    private HistogramGibbs() {
    }

    /** Samples the posterior on the bins of {@code ml} (the ML solution of the same work), keyed by {@code seed}. */
    public static Posterior sample(WorkHistogram ml, Settings settings, long seed) {
        double[] e = ml.energies();
        double[] h = ml.counts();
        int n = e.length;
        double shift = -ml.logRatio();
        double[] shifted = new double[n];
        for (int b = 0; b < n; b++) {
            shifted[b] = e[b] - shift;
        }
        double[] logG = ml.logMasses();
        double[] scratch = new double[n];
        int total = settings.burnIn() + settings.samples();
        double[] kept = new double[settings.samples()];
        for (int t = 0; t < total; t++) {
            double logZ0 = LogSpace.logSumExp(logG);
            double logZ1 = tilted(logG, shifted, scratch);
            double logL0 = GammaDraw.logStandard(ml.forward(), seed, n, t, StreamTag.HISTOGRAM_GIBBS) - logZ0;
            double logL1 = GammaDraw.logStandard(ml.reverse(), seed, n + 1, t, StreamTag.HISTOGRAM_GIBBS) - logZ1;
            for (int b = 0; b < n; b++) {
                logG[b] = GammaDraw.logStandard(h[b], seed, b, t, StreamTag.HISTOGRAM_GIBBS)
                        - LogSpace.logAddExp(logL0, logL1 - shifted[b]);
            }
            double norm = LogSpace.logSumExp(logG);
            for (int b = 0; b < n; b++) {
                logG[b] -= norm;
            }
            if (t >= settings.burnIn()) {
                kept[t - settings.burnIn()] = tilted(logG, shifted, scratch) - shift;
            }
        }
        return summary(kept, n);
    }

    /** {@code log Σ_b g_b e^{-E'_b}}. */
    private static double tilted(double[] logG, double[] shifted, double[] scratch) {
        for (int b = 0; b < logG.length; b++) {
            scratch[b] = logG[b] - shifted[b];
        }
        return LogSpace.logSumExp(scratch);
    }

    static Posterior summary(double[] draws, int bins) {
        int s = draws.length;
        double mean = 0;
        for (double y : draws) {
            mean += y / s;
        }
        double ss = 0;
        for (double y : draws) {
            ss += (y - mean) * (y - mean);
        }
        double variance = ss / (s - 1);
        double[] sorted = draws.clone();
        Arrays.sort(sorted);
        int batches = 20;
        int size = s / batches;
        double[] batchMeans = new double[batches];
        double grand = 0;
        for (int i = 0; i < batches; i++) {
            for (int j = i * size; j < (i + 1) * size; j++) {
                batchMeans[i] += draws[j] / size;
            }
            grand += batchMeans[i] / batches;
        }
        double bss = 0;
        for (double m : batchMeans) {
            bss += (m - grand) * (m - grand);
        }
        double meanVariance = bss / (batches - 1) / batches;
        double ess = meanVariance > 0 ? Math.min(s, variance / meanVariance) : s;
        return new Posterior(mean, Math.sqrt(variance), quantile(sorted, 0.5), quantile(sorted, 0.025),
                quantile(sorted, 0.975), ess, bins, draws);
    }

    /** The quantile of sorted values by linear interpolation between order statistics (type 7). */
    static double quantile(double[] sorted, double p) {
        double at = p * (sorted.length - 1);
        int i = (int) Math.floor(at);
        int j = Math.min(i + 1, sorted.length - 1);
        return sorted[i] + (at - i) * (sorted[j] - sorted[i]);
    }
}
