package org.logz.estimate.aisel;

import java.util.Optional;

import org.logz.estimate.smc.SmcResult;
import org.logz.model.Likelihood;

/**
 * An AISEL run: the SMC sampler's result (both evidence estimates, the trace), the likelihood estimator it used,
 * the variance σ² of log p̂_N at the run's posterior mean of θ, and, for {@code --inner auto}, how N was chosen.
 *
 * @param variance σ² of {@code log p̂_N} at {@code center} over {@value Aisel#REPEATS} estimates
 * @param center   the run's weighted posterior mean of θ
 */
public record AiselResult(SmcResult smc, Likelihood.Estimated likelihood, double variance, double[] center,
                          InnerChoice choice) {
    public AiselResult {
        center = center.clone();
    }

    @Override
    public double[] center() {
        return center.clone();
    }

    public Optional<InnerChoice> inner() {
        return Optional.ofNullable(choice);
    }

    /**
     * Theorem 1's τ = Σ_t (a_t - a_{t-1})(2 a_t - 1) over the run's temperatures; ESS with an estimated likelihood
     * is {@code exp(-τσ²)} of ESS with the exact one under the theorem's assumptions.
     */
    public double tau() {
        double[] a = smc.betas();
        double tau = 0;
        for (int t = 1; t < a.length; t++) {
            tau += (a[t] - a[t - 1]) * (2 * a[t] - 1);
        }
        return tau;
    }

    /** {@code exp(-τσ²)}. */
    public double essFactor() {
        return Math.exp(-tau() * variance);
    }

    /** Inner draws of the run, the pilot's included: (base draws + moves) × N. */
    public long innerDraws() {
        long run = ((long) smc.particles() + smc.transitions()) * likelihood.draws();
        return run + (choice == null ? 0 : choice.innerDraws());
    }
}
