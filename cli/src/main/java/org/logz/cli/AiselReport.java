package org.logz.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.api.Outcome;
import org.logz.cli.plot.TracePlot;
import org.logz.estimate.Method;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.aisel.InnerChoice;
import org.logz.estimate.smc.SmcResult;
import org.logz.model.LatentModel;
import org.logz.resample.ResamplingScheme;

/** {@code --method aisel}: the report of AISEL on a latent-variable model (Tran et al., Algorithm 1). */
final class AiselReport {
    private AiselReport() {
    }

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        var plan = (Outcome.Plan.Aisel) o.plan();
        List<AiselResult> results = plan.results();
        ResamplingScheme scheme = plan.scheme();
        LatentModel model = c.problem.latentModel().orElseThrow();
        AiselResult r = results.get(0);
        SmcResult s = r.smc();
        Map<Method, Json.Estimate> estimates = SmcReport.readings(EstimateCommand.runs(o, SmcResult.class));
        Map<String, Double> center = new LinkedHashMap<>();
        double[] theta = r.center();
        for (int k = 0; k < theta.length; k++) {
            center.put(model.parameterNames().get(k), theta[k]);
        }
        InnerChoice choice = r.inner().orElse(null);
        var details = new EstimateReport.Aisel(estimates, s.particles(), s.steps(), s.stepCount(),
                SmcReport.essTarget(plan.steps()), plan.resampleThreshold(), scheme.cliName(),
                s.resamplings(), results.stream().mapToLong(x -> x.smc().transitions()).sum(),
                results.stream().mapToLong(AiselResult::innerDraws).sum(), r.likelihood().draws(),
                plan.proposal().cliName(), r.variance(), center, r.tau(), r.essFactor(), choice == null ? null
                : new EstimateReport.InnerChoice(choice.targetVariance(), choice.measuredDraws(), choice.measuredVariance(),
                choice.pilotMoves()), s.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, s, Method.AISEL);
        }
        String stderrMethod = s.standardError().isPresent() ? "Lee-Whiteley (single run)"
                : "none from one run; use --replicates B" + (scheme == ResamplingScheme.MULTINOMIAL ? ""
                : " (or --resampling multinomial)");
        return new EstimateCommand.Runs(o.runs(), String.format(Locale.ROOT,
                "%d particles, N = %d inner draws (%s, σ² %.3f), %d steps (%s), %d resamplings, power posterior %.4f",
                s.particles(), r.likelihood().draws(), plan.proposal().cliName(), r.variance(), s.stepCount(), s.steps(),
                s.resamplings(), estimates.get(Method.POWER_POSTERIOR).logZ()), null, stderrMethod, details,
                o.modelWarnings());
    }
}
