package org.logz.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.api.Outcome;
import org.logz.cli.plot.TracePlot;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.estimate.work.WorkEstimate;
import org.logz.io.ValueFiles;
import org.logz.options.AnnealingOptions;
import org.logz.schedule.Schedule;

/**
 * {@code --method bar|cumulant|histogram}: the report of forward and reverse annealing on one schedule, read by
 * every nonequilibrium estimator; the method picks the headline.
 */
final class WorkReport {
    private WorkReport() {
    }

    private static final Map<Method, String> STDERR_METHODS = Map.of(
            Method.BAR, "asymptotic variance of BAR (Bennett 1976; pymbar's)",
            Method.CUMULANT, "delta method on the work moments",
            Method.HISTOGRAM, "bootstrap over forward and reverse work",
            Method.HISTOGRAM_GIBBS, "posterior standard deviation of the histogram's Gibbs sampler (Habeck 2017 §5.3)");

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        List<BidirectionalResult> runs = EstimateCommand.runs(o, BidirectionalResult.class);
        var plan = (Outcome.Plan.Annealing) o.plan();
        Schedule schedule = plan.schedule();
        BidirectionalResult r = runs.get(0);
        int forwardChains = r.forward().chains();
        int reverseChains = plan.reverseChains();
        Map<Method, Json.Estimate> estimates = new LinkedHashMap<>();
        for (WorkEstimate e : r.estimates()) {
            estimates.put(e.method(), new Json.Estimate(r.logZ(e.method()), e.stdErr().orElse(Double.NaN)));
        }
        long pilot = o.pilotSweeps();
        var details = new EstimateReport.Work(estimates, forwardChains, reverseChains, schedule.steps(), schedule.name(),
                r.reverse().start(), plan.bootstraps(), runs.stream().mapToLong(BidirectionalResult::sweeps).sum() + pilot,
                pilot > 0 ? pilot : null, r.logZ0(), r.posterior().map(p -> EstimateReport.GibbsPosterior.of(p, r.logZ0(),
                plan.histogram())).orElse(null), new EstimateReport.Directions(r.forward().trace(), r.reverse().trace()));
        Path work = c.given(AnnealingOptions.WORK);
        if (work != null) {
            ValueFiles.write(work, r.forward().work());
        }
        Path reverseWork = c.given(AnnealingOptions.REVERSE_WORK);
        if (reverseWork != null) {
            ValueFiles.write(reverseWork, r.reverse().work());
        }
        if (c.plot != null) {
            TracePlot.write(c.plot, r, c.exactLogZ);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "%d forward + %d reverse chains × %d steps (%s schedule, reverse start %s), bounds [%.4f, %.4f]",
                forwardChains, reverseChains, schedule.steps(), schedule.name(), r.reverse().start(), r.logZ(Method.LOWER_BOUND),
                r.logZ(Method.UPPER_BOUND)), o.path(), STDERR_METHODS.get(c.method), details, o.modelWarnings());
    }
}
