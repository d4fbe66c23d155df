package org.logz.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.UserException;
import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.estimate.Method;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.io.ValueFiles;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;

/** {@code --method rts|ti|ti-rb|mbar}: one tempered sampling run read by all four estimators; the method picks the headline. */
final class TemperedRuns {
    private TemperedRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        Schedule ladder = c.ladder();
        double[] logPrior = c.prior == null ? null : logPrior(c.prior);
        if (c.mbarSamples == 0 && c.method == Method.MBAR) {
            throw new UserException("--method mbar needs --mbar-samples above 0");
        }
        int chains = c.chains(100);
        List<TemperedResult> runs = new ArrayList<>();
        AnnealingRuns.PathDescription described;
        try (ParticleBackend backend = c.backendOptions.open();
             TemperedPath path = problem.temperingPath(backend, c.pathOptions())) {
            for (int b = 0; b < c.replicates; b++) {
                var settings = new TemperedSampling.Settings(chains, ladder, logPrior, c.roundSweeps, c.rounds, c.sweeps,
                        c.batches, c.mbarSamples, Philox.replicateSeed(c.seed, b), c.method);
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(new TemperedSampling(settings).run(path, progress));
                }
            }
            described = AnnealingRuns.PathDescription.of(path);
        }
        TemperedResult r = runs.get(0);
        Map<Method, Json.Estimate> estimates = new LinkedHashMap<>();
        for (LevelEstimate e : r.estimates()) {
            estimates.put(e.method(), new Json.Estimate(e.logZ(), e.stdErr()));
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
        var details = new EstimateReport.Tempered(estimates, chains, ladder.steps() + 1, ladder.name(),
                c.prior == null ? "uniform" : c.prior.toString(), c.sweeps, c.roundSweeps, c.rounds, r.initialRounds(),
                r.converged(), r.finalDeviation(), r.batches(), r.mbarSamples(),
                r.mbarSamples() > 0 ? r.mbarResidual() : null, runs.stream().mapToLong(TemperedResult::sweeps).sum(),
                r.logZ0(), trace);
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "%d chains on %d levels, %d initial round(s)%s, %d final sweeps, %d groups of chains, %d chain-sweeps", chains,
                ladder.steps() + 1, r.initialRounds(), r.initialRounds() == 0 ? " (Ẑ from the annealing pass)"
                        : r.converged() ? " (converged)" : " (not converged)", c.sweeps,
                r.batches(), r.sweeps()), described, "batch means over " + r.batches() + " groups of chains", details);
    }

    /** The prior file: one positive weight per line (# comments and blank lines skipped), as log r_k. */
    private static double[] logPrior(Path file) {
        double[] weights = ValueFiles.read(file);
        double[] log = new double[weights.length];
        for (int k = 0; k < weights.length; k++) {
            if (!(weights[k] > 0)) {
                throw new UserException(file + ": prior weight " + (k + 1) + " is " + weights[k]
                        + "; weights must be positive");
            }
            log[k] = Math.log(weights[k]);
        }
        return log;
    }

    /** One level of the JSON trace: the headline estimator's curve and the run's occupancy against its prior. */
    record LevelPoint(int level, double beta, double logZ, double occupancy, double prior, long visits, double initialLogZ) {
    }
}
