package org.logz.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.UserException;
import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.estimate.aisel.Aisel;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.aisel.InnerChoice;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;

/**
 * {@code --method aisel}: AISEL on a latent-variable model (Tran et al., Algorithm 1), the SMC sampler's options
 * with {@code --inner N|auto[:V]} and {@code --proposal}; replicates re-run everything, the choice of N included.
 */
final class AiselRuns {
    /** σ² above which the run warns: the pseudo-marginal moves stick (Pitt et al. 2012 put the optimum near σ² = 1). */
    static final double STICKY_VARIANCE = 2;

    private AiselRuns() {
    }

    /** {@code N} or {@code auto[:V]}. */
    static Aisel.Inner inner(String spec) {
        String s = spec == null ? "auto" : spec.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.equals("auto")) {
                return new Aisel.Inner.Auto(1);
            }
            if (s.startsWith("auto:")) {
                return new Aisel.Inner.Auto(Double.parseDouble(s.substring(5)));
            }
            int draws = Integer.parseInt(s);
            if (draws < 1 || draws > Likelihood.MAX_DRAWS) {
                throw new UserException("--inner N must be between 1 and " + Likelihood.MAX_DRAWS + ", got " + draws);
            }
            return new Aisel.Inner.Fixed(draws);
        } catch (NumberFormatException e) {
            throw new UserException("--inner must be a number of draws N, auto or auto:V (V the target variance of "
                    + "log p̂), got " + spec);
        }
    }

    /** The most inner terms (particles × draws × observations) one sweep of likelihood estimates may evaluate. */
    static final long MAX_TERMS_PER_SWEEP = 1L << 34;

    /**
     * Refuses up front a run whose every likelihood sweep would take hours: one sweep evaluates particles × N ×
     * observations terms, at roughly 10^8 per second and core.
     */
    static void checkCost(long particles, long draws, LatentModel model) {
        double terms = (double) particles * draws * model.observations();
        if (terms > MAX_TERMS_PER_SWEEP) {
            throw new UserException(String.format(Locale.ROOT, "%d particles × %d inner draws × %d observations = %.3g "
                    + "terms per likelihood sweep (and dozens of sweeps per run) exceed the %.3g logz runs; use fewer "
                    + "particles or inner draws", particles, draws, model.observations(), terms, (double) MAX_TERMS_PER_SWEEP));
        }
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem.LatentProblem problem) {
        LatentModel model = problem.model();
        ResamplingScheme scheme = c.matched("--resampling") ? ResamplingScheme.parse(c.resampling)
                : ResamplingScheme.MULTINOMIAL;
        SmcSampler.Steps steps = SmcRuns.steps(c, problem);
        Aisel.Inner inner = inner(c.inner);
        if (inner instanceof Aisel.Inner.Fixed fixed) {
            checkCost(c.particles, fixed.draws(), model);
        }
        Likelihood.Proposal proposal = c.proposalOption() != null ? c.proposalOption()
                : Likelihood.Proposal.defaultFor(model);
        List<AiselResult> results = new ArrayList<>();
        try (ParticleBackend backend = c.backendOptions.open()) {
            for (int b = 0; b < c.replicates; b++) {
                var smc = new SmcSampler.Settings(c.particles, steps, c.resampleThreshold, scheme,
                        Philox.replicateSeed(c.seed, b), Method.SMC);
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    results.add(new Aisel(new Aisel.Settings(smc, inner, proposal, c.sweepsPerStep)).run(backend, model,
                            progress));
                }
            }
        }
        AiselResult r = results.get(0);
        SmcResult s = r.smc();
        Map<Method, Json.Estimate> estimates = SmcRuns.readings(results.stream().map(AiselResult::smc).toList());
        Map<String, Double> center = new LinkedHashMap<>();
        double[] theta = r.center();
        for (int k = 0; k < theta.length; k++) {
            center.put(model.parameterNames().get(k), theta[k]);
        }
        InnerChoice choice = r.inner().orElse(null);
        boolean adaptive = steps instanceof SmcSampler.Steps.Adaptive;
        var details = new EstimateReport.Aisel(estimates, s.particles(), s.steps(), s.stepCount(),
                adaptive ? ((SmcSampler.Steps.Adaptive) steps).essTarget() : null, c.resampleThreshold, scheme.cliName(),
                s.resamplings(), results.stream().mapToLong(x -> x.smc().transitions()).sum(),
                results.stream().mapToLong(AiselResult::innerDraws).sum(), r.likelihood().draws(),
                proposal.cliName(), r.variance(), center, r.tau(), r.essFactor(), choice == null ? null
                : new EstimateReport.InnerChoice(choice.targetVariance(), choice.measuredDraws(), choice.measuredVariance(),
                choice.pilotMoves()), s.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, s);
        }
        List<Warning> warnings = new ArrayList<>();
        if (!(r.variance() <= STICKY_VARIANCE)) {
            warnings.add(Warning.noisyLikelihood(r.variance(), r.likelihood().draws()));
        }
        String stderrMethod = s.standardError().isPresent() ? "Lee-Whiteley (single run)"
                : "none from one run; use --replicates B" + (scheme == ResamplingScheme.MULTINOMIAL ? ""
                : " (or --resampling multinomial)");
        return new EstimateCommand.Runs(results.stream().map(AiselResult::smc).toList(), String.format(Locale.ROOT,
                "%d particles, N = %d inner draws (%s, σ² %.3f), %d steps (%s), %d resamplings, power posterior %.4f",
                s.particles(), r.likelihood().draws(), proposal.cliName(), r.variance(), s.stepCount(), s.steps(),
                s.resamplings(), estimates.get(Method.POWER_POSTERIOR).logZ()), null, stderrMethod, details, warnings);
    }
}
