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
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;

/**
 * {@code --method smc|power-posterior|power-posterior-corrected}: one SMC sampler run on the tempered
 * path, read by its three estimators; the method picks the headline.
 */
final class SmcRuns {
    private SmcRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        // multinomial by default: it is the scheme with a sound single-run standard error (Lee & Whiteley)
        ResamplingScheme scheme = c.matched("--resampling") ? ResamplingScheme.parse(c.resampling)
                : ResamplingScheme.MULTINOMIAL;
        List<SmcResult> runs = new ArrayList<>();
        AnnealingRuns.PathDescription described;
        SmcSampler.Steps steps;
        long pilotSweeps = 0;
        try (ParticleBackend backend = c.backendOptions.open();
             TemperedPath path = problem.annealingPath(backend, c.pathOptions())) {
            if (adaptive(c)) {
                steps = adaptiveSteps(c);
            } else {
                EstimateCommand.Planned planned = c.schedule(problem, path);
                steps = new SmcSampler.Steps.Fixed(planned.schedule());
                pilotSweeps = planned.pilotSweeps();
            }
            for (int b = 0; b < c.replicates; b++) {
                var settings = new SmcSampler.Settings(c.particles, steps, c.resampleThreshold, scheme,
                        Philox.replicateSeed(c.seed, b), c.method);
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(new SmcSampler(settings).run(path, progress));
                }
            }
            described = AnnealingRuns.PathDescription.of(path);
        }
        SmcResult r = runs.get(0);
        Map<Method, Json.Estimate> estimates = readings(runs);
        boolean adaptive = steps instanceof SmcSampler.Steps.Adaptive;
        var details = new EstimateReport.Smc(estimates, r.particles(), r.steps(), r.stepCount(),
                adaptive ? ((SmcSampler.Steps.Adaptive) steps).essTarget() : null,
                adaptive ? ((SmcSampler.Steps.Adaptive) steps).maxSteps() : null, c.resampleThreshold, scheme.cliName(),
                r.resamplings(), runs.stream().mapToLong(SmcResult::transitions).sum() + pilotSweeps, r.logZ0(), r.trace());
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
                runs.size() > 1 ? " (means of " + runs.size() + " replicates)" : ""), described,
                stderrMethod, details);
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

    /** Adaptive tempering, or --schedule's fixed schedule (no VAROPT: its pilot needs the path AISEL builds later). */
    static SmcSampler.Steps steps(EstimateCommand c, Problem problem) {
        if (adaptive(c)) {
            return adaptiveSteps(c);
        }
        c.rejectVaropt();
        return new SmcSampler.Steps.Fixed(c.schedule(problem));
    }

    /** Adaptive tempering unless --schedule names a schedule. */
    static boolean adaptive(EstimateCommand c) {
        boolean adaptive = !c.matched("--schedule") || c.schedule.trim().equalsIgnoreCase("adaptive");
        if (!adaptive) {
            for (String option : new String[] {"--ess-target", "--max-steps"}) {
                if (c.matched(option)) {
                    throw new UserException(option + " applies to adaptive tempering (--schedule adaptive), not to "
                            + "--schedule " + c.schedule);
                }
            }
        }
        return adaptive;
    }

    /** --ess-target and --max-steps; --steps belongs to fixed schedules. */
    private static SmcSampler.Steps adaptiveSteps(EstimateCommand c) {
        if (c.matched("--steps")) {
            throw new UserException("--steps sets a fixed schedule's steps; adaptive tempering chooses its own (cap "
                    + "them with --max-steps), or give --schedule linear|geometric|...");
        }
        return new SmcSampler.Steps.Adaptive(c.essTarget, c.maxSteps);
    }
}
