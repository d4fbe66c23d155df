package org.logz.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.estimate.work.WorkEstimate;
import org.logz.io.ValueFiles;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;

/**
 * {@code --method bar|cumulant|histogram}: forward and reverse annealing on one schedule, read by
 * every nonequilibrium estimator; the method picks the headline.
 */
final class WorkRuns {
    private WorkRuns() {
    }

    private static final Map<Method, String> STDERR_METHODS = Map.of(
            Method.BAR, "asymptotic variance of BAR (Bennett 1976; pymbar's)",
            Method.CUMULANT, "delta method on the work moments",
            Method.HISTOGRAM, "bootstrap over forward and reverse work");

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        int forwardChains = c.chains(1000);
        int reverseChains = c.reverseChains == null ? forwardChains : c.reverseChains;
        List<BidirectionalResult> runs = new ArrayList<>();
        AnnealingRuns.PathDescription described;
        EstimateCommand.Planned planned;
        Schedule schedule;
        try (ParticleBackend backend = c.backendOptions.open();
             TemperedPath path = problem.annealingPath(backend, c.pathOptions())) {
            planned = c.schedule(problem, path);
            schedule = planned.schedule();
            AnnealedImportanceSampling.Start start = problem.reverseStart(c.reverseStart, path, reverseChains);
            for (int b = 0; b < c.replicates; b++) {
                var settings = new BidirectionalAnnealing.Settings(forwardChains, reverseChains, schedule, c.bootstraps,
                        Philox.replicateSeed(c.seed, b), c.method);
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(new BidirectionalAnnealing(settings).run(path, start, progress));
                }
            }
            described = AnnealingRuns.PathDescription.of(path);
        }
        BidirectionalResult r = runs.get(0);
        Map<Method, Json.Estimate> estimates = new LinkedHashMap<>();
        for (WorkEstimate e : r.estimates()) {
            estimates.put(e.method(), new Json.Estimate(r.logZ(e.method()), e.stdErr().orElse(Double.NaN)));
        }
        var details = new EstimateReport.Work(estimates, forwardChains, reverseChains, schedule.steps(), schedule.name(),
                r.reverse().start(), c.bootstraps, runs.stream().mapToLong(BidirectionalResult::sweeps).sum()
                + planned.pilotSweeps(), planned.pilotSweeps() > 0 ? planned.pilotSweeps() : null, r.logZ0(),
                new EstimateReport.Directions(r.forward().trace(), r.reverse().trace()));
        if (c.workFile != null) {
            ValueFiles.write(c.workFile, r.forward().work());
        }
        if (c.reverseWorkFile != null) {
            ValueFiles.write(c.reverseWorkFile, r.reverse().work());
        }
        if (c.plot != null) {
            TracePlot.write(c.plot, r, c.exactLogZ);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "%d forward + %d reverse chains × %d steps (%s schedule, reverse start %s), bounds [%.4f, %.4f]",
                forwardChains, reverseChains, schedule.steps(), schedule.name(), r.reverse().start(), r.logZ(Method.LOWER_BOUND),
                r.logZ(Method.UPPER_BOUND)), described,
                STDERR_METHODS.get(c.method), details);
    }
}
