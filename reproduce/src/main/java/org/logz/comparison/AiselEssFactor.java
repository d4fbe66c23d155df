package org.logz.comparison;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.Method;
import org.logz.estimate.aisel.Aisel;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

/**
 * Theorem 1 of the AISEL paper (Tran et al.) measured: the SMC sampler on a latent-variable model's exact likelihood
 * and AISEL on its estimate from N inner draws, both on one linear schedule of T steps, M particles resampled at every
 * step and moved by one (pseudo-marginal) move. Theorem 1's τ = Σ (a_t − a_{t−1})(2a_t − 1) equals Σ (a_t − a_{t−1})²
 * (because Σ (a_t² − a_{t−1}²) = 1), so its factor exp(−τσ²) is the product over steps of exp(−(a_t − a_{t−1})²σ²),
 * the loss each step's incremental weights p̂_N^{a_t − a_{t−1}} suffer from the noise of log p̂_N when the particles are
 * distributed as the theorem's perfect transitions leave them. The measured factor is that product read from the runs:
 * the geometric mean over seeds of Π_t ESS_t (the ESS of step t's incremental weights, the conditional ESS of a
 * population just resampled), AISEL's over the exact likelihood's. σ² is the variance of log p̂_N at the posterior
 * mean of the exact likelihood's runs, one θ for every N (the theorem holds it constant in θ, its Assumption 3). A
 * pseudo-marginal move that sticks where p̂_N is high breaks the perfect transitions of its Assumption 4, and σ² larger
 * away from the posterior breaks Assumption 3; either lowers the measured factor below the predicted one.
 */
public final class AiselEssFactor {
    /**
     * One N: the inner draws, σ² of log p̂_N at the exact likelihood's posterior mean, τ, the predicted and the measured
     * factor, the standard error of the measured factor's log (from the seeds' paired differences), and the mean over
     * seeds of Σ_t log ESS_t of both runs.
     */
    public record Row(int draws, double variance, double tau, double predicted, double measured, double logStdErr,
                      double logEssAis, double logEssAisel) {
    }

    private AiselEssFactor() {
    }

    /** The rows for the given N, each against one AIS run on the exact likelihood per seed. */
    public static List<Row> run(ParticleBackend backend, LatentModel model, Likelihood.Proposal proposal, int[] draws,
                                int particles, int steps, int seeds, long seed, ProgressListener listener) {
        double[] logEssAis = new double[seeds];
        double[] center = new double[model.parameters()];
        long done = 0;
        long total = (long) seeds * (draws.length + 1);
        for (int s = 0; s < seeds; s++) {
            try (TemperedPath path = new TemperedPath(backend, new PseudoMarginal(model, new Likelihood.Exact()), 1)) {
                SmcResult r = new SmcSampler(settings(particles, steps, seed, s)).run(path, ProgressListener.NONE, true);
                logEssAis[s] = logEss(r);
                double[] mean = r.posteriorMean();
                for (int i = 0; i < center.length; i++) {
                    center[i] += mean[i] / seeds;
                }
            }
            listener.progress(++done, total, Double.NaN, Double.NaN);
        }
        List<Row> rows = new ArrayList<>();
        for (int n : draws) {
            Likelihood.Estimated likelihood = new Likelihood.Estimated(n, proposal);
            // one θ for every N: the exact likelihood's posterior mean (each AISEL run's own is noisier, and worse
            // where N is small)
            double variance = Aisel.variance(backend, model, likelihood, center, Philox.derive(seed, StreamTag.INNER_PILOT,
                    n));
            double[] differences = new double[seeds];
            double logEss = 0;
            double tau = Double.NaN;
            for (int s = 0; s < seeds; s++) {
                AiselResult a = new Aisel(new Aisel.Settings(settings(particles, steps, seed, s), new Aisel.Inner.Fixed(n),
                        proposal, 1)).run(backend, model, ProgressListener.NONE);
                double l = logEss(a.smc());
                logEss += l / seeds;
                // seed s's AISEL run against seed s's AIS run: both start from the same key
                differences[s] = l - logEssAis[s];
                tau = a.tau();
                listener.progress(++done, total, Double.NaN, Double.NaN);
            }
            double mean = Arrays.stream(differences).average().orElseThrow();
            double ss = Arrays.stream(differences).map(d -> (d - mean) * (d - mean)).sum();
            rows.add(new Row(n, variance, tau, Math.exp(-tau * variance), Math.exp(mean),
                    Math.sqrt(ss / (seeds - 1) / seeds), Arrays.stream(logEssAis).average().orElseThrow(), logEss));
        }
        return rows;
    }

    /** Seed {@code s}'s run: T linear steps, resampled at every step. */
    private static SmcSampler.Settings settings(int particles, int steps, long seed, int s) {
        return new SmcSampler.Settings(particles, new SmcSampler.Steps.Fixed(Schedule.linear(steps)), 1,
                ResamplingScheme.MULTINOMIAL, Philox.replicateSeed(seed, s), Method.SMC);
    }

    /** Σ_t log ESS_t over the run's steps: each step's conditional ESS, its incremental weights' ESS. */
    private static double logEss(SmcResult r) {
        return r.trace().stream().mapToDouble(p -> Math.log(p.conditionalEss())).sum();
    }
}
