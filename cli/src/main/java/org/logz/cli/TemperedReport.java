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
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.schedule.Schedule;

/** {@code --method rts|ti|ti-rb|mbar}: the report of one tempered sampling run read by all four estimators. */
final class TemperedReport {
    private TemperedReport() {
    }

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        List<TemperedResult> runs = EstimateCommand.runs(o, TemperedResult.class);
        var plan = (Outcome.Plan.Tempered) o.plan();
        Schedule ladder = plan.ladder();
        TemperedSampling.Settings settings = plan.settings();
        TemperedResult r = runs.get(0);
        int chains = r.chains();
        Map<Method, Json.Estimate> estimates = new LinkedHashMap<>();
        for (LevelEstimate e : r.estimates()) {
            // a reading whose groups all agreed measured no error: null, as where a method has none
            estimates.put(e.method(), new Json.Estimate(e.logZ(), e.stdErr() > 0 ? e.stdErr() : Double.NaN));
        }
        double[] curve = r.estimate(c.method).curve();
        double[] betas = r.levelBetas();
        double[] occupancy = r.occupancy();
        double[] levelLogPrior = r.logPrior();
        long[] visits = r.visits();
        double[] initialLogZ = r.initialLogZ();
        List<LevelPoint> trace = new ArrayList<>();
        for (int k = 0; k < curve.length; k++) {
            trace.add(new LevelPoint(k, betas[k], curve[k], occupancy[k], Math.exp(levelLogPrior[k]), visits[k], initialLogZ[k]));
        }
        var details = new EstimateReport.Tempered(estimates, chains, ladder.steps() + 1, ladder.name(), plan.prior(),
                settings.sweeps(), settings.roundSweeps(), settings.maxRounds(), settings.flatStart() ? "one" : "ais",
                r.initialRounds(), r.converged(), r.finalDeviation(), r.batches(), r.deltaMethod(), r.mbarSamples(), r.mbarSamples() > 0 ? r.mbarResidual() : null,
                runs.stream().mapToLong(TemperedResult::sweeps).sum(), r.logZ0(), trace);
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "%d chains on %d levels, %d initial round(s)%s, %d final sweeps, %d groups of chains, %d chain-sweeps", chains,
                ladder.steps() + 1, r.initialRounds(), r.initialRounds() == 0 ? " (Ẑ from the annealing pass)"
                        : r.converged() ? " (converged)" : " (not converged)", settings.sweeps(),
                r.batches(), r.sweeps()), o.path(), "batch means over " + r.batches() + " groups of chains", details,
                o.modelWarnings());
    }

    /** One level of the JSON trace: the headline estimator's curve and the run's occupancy against its prior. */
    record LevelPoint(int level, double beta, double logZ, double occupancy, double prior, long visits, double initialLogZ) {
    }
}
