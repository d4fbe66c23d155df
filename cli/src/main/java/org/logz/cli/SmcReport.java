package org.logz.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.api.Outcome;
import org.logz.cli.plot.TracePlot;
import org.logz.estimate.Method;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.resample.ResamplingScheme;

/**
 * {@code --method smc|power-posterior|power-posterior-corrected}: the report of one SMC sampler run on the tempered
 * path, read by its three estimators; the method picks the headline.
 */
final class SmcReport {
    private SmcReport() {
    }

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        List<SmcResult> runs = EstimateCommand.runs(o, SmcResult.class);
        var plan = (Outcome.Plan.Smc) o.plan();
        SmcSampler.Steps steps = plan.steps();
        ResamplingScheme scheme = plan.scheme();
        SmcResult r = runs.get(0);
        Map<Method, Json.Estimate> estimates = readings(runs);
        var details = new EstimateReport.Smc(estimates, r.particles(), r.steps(), r.stepCount(), essTarget(steps),
                steps instanceof SmcSampler.Steps.Adaptive a ? a.maxSteps() : null, plan.resampleThreshold(), scheme.cliName(),
                r.resamplings(), runs.stream().mapToLong(SmcResult::transitions).sum() + o.pilotSweeps(), r.logZ0(),
                r.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        String stderrMethod = r.standardError().isPresent() ? "Lee-Whiteley (single run)"
                : c.method == Method.SMC && scheme == ResamplingScheme.MULTINOMIAL
                ? "none: the Lee-Whiteley variance estimate was not positive in this run; use --replicates B"
                : c.method == Method.SMC ? "none from one run with " + scheme.cliName() + " resampling; use --replicates B "
                + "(or --resampling multinomial)" : "none from one run of the power-posterior estimate; use --replicates B";
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT, "%d particles, %d steps (%s), %d resamplings, "
                + "power posterior %.4f (corrected %.4f)%s", r.particles(), r.stepCount(), r.steps(), r.resamplings(),
                estimates.get(Method.POWER_POSTERIOR).logZ(), estimates.get(Method.POWER_POSTERIOR_CORRECTED).logZ(),
                runs.size() > 1 ? " (means of " + runs.size() + " replicates)" : ""), o.path(), stderrMethod, details,
                o.modelWarnings());
    }

    /** Adaptive tempering's ESS target ρ; null for a fixed schedule. */
    static Double essTarget(SmcSampler.Steps steps) {
        return steps instanceof SmcSampler.Steps.Adaptive a ? a.essTarget() : null;
    }

    /**
     * Every estimator's reading: one run's with its single-run error; with replicates, the mean over them with the
     * standard error of that mean from their spread (so that the power-posterior readings get one).
     */
    static Map<Method, Json.Estimate> readings(List<SmcResult> runs) {
        Map<Method, Json.Estimate> estimates = new LinkedHashMap<>();
        for (SmcResult.Reading e : runs.get(0).readings()) {
            if (runs.size() == 1) {
                estimates.put(e.method(), new Json.Estimate(e.logZ(), e.stdErr().orElse(Double.NaN)));
                continue;
            }
            double[] v = runs.stream().mapToDouble(run -> run.reading(e.method()).logZ()).toArray();
            double mean = java.util.Arrays.stream(v).average().orElseThrow();
            double ss = java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum();
            estimates.put(e.method(), new Json.Estimate(mean, Math.sqrt(ss / (v.length - 1) / v.length)));
        }
        return estimates;
    }
}
