package org.logz.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.api.Outcome;
import org.logz.cli.plot.TracePlot;
import org.logz.estimate.Method;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.PtResult;

/** {@code --method pt}: the report of one parallel tempering run read by BAR between neighbouring levels, MBAR and TI. */
final class PtReport {
    private PtReport() {
    }

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        List<PtResult> runs = EstimateCommand.runs(o, PtResult.class);
        var plan = (Outcome.Plan.ParallelTempering) o.plan();
        PtResult r = runs.get(0);
        Map<Method, Json.Estimate> estimates = new LinkedHashMap<>();
        for (LevelEstimate e : r.estimates()) {
            estimates.put(e.method(), new Json.Estimate(e.logZ(), e.stdErr()));
        }
        double[] curve = r.estimate(r.headline()).curve();
        double[] betas = r.levelBetas();
        double[] slope = r.meanSlope();
        double[] rates = r.swapRates();
        List<LevelPoint> trace = new ArrayList<>();
        for (int k = 0; k < betas.length; k++) {
            trace.add(new LevelPoint(k, betas[k], curve[k], slope[k], k + 1 < betas.length ? rates[k] : null));
        }
        List<Double> tuning = new ArrayList<>();
        for (double b : r.tuningBarriers()) {
            tuning.add(b);
        }
        List<Long> trips = new ArrayList<>();
        for (long t : r.roundTrips()) {
            trips.add(t);
        }
        var details = new EstimateReport.ParallelTempering(estimates, r.headline().toString(), r.ladders(), betas.length,
                r.chains(), plan.ladder().name(), plan.settings().sweeps(), plan.settings().roundSweeps(), r.tuningBarriers().length, r.barrier(), tuning,
                r.totalRoundTrips(), trips, r.mbarSamples(), r.mbarSamples() > 0 ? r.mbarResidual() : null,
                runs.stream().mapToLong(PtResult::transitions).sum(), r.logZ0(), trace);
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "%d ladders × %d levels (%s, %d tuning round(s)), %d final sweeps, barrier %.2f, %d round trips, "
                        + "%d chain-sweeps", r.ladders(), betas.length, plan.ladder().name(), r.tuningBarriers().length,
                plan.settings().sweeps(), r.barrier(), r.totalRoundTrips(), runs.stream().mapToLong(PtResult::transitions).sum()), o.path(),
                "batch means over " + r.ladders() + " ladders", details, o.modelWarnings());
    }

    /**
     * One level of the JSON trace: its β, the headline estimator's log Z_k, the mean d log f/dβ of the states drawn
     * there, and the swap rate with the next level (null at the top).
     */
    record LevelPoint(int level, double beta, double logZ, double meanSlope, Double swapRate) {
    }
}
