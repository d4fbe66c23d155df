package org.logz.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.io.ValueFiles;
import org.logz.model.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;

/** {@code --method ais|raise}: one annealing direction. */
final class AnnealingRuns {
    private AnnealingRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem, Map<String, Object> report) {
        Schedule schedule = c.schedule(problem);
        int chains = c.chains(1000);
        boolean forward = c.method.equals("ais");
        List<AnnealingResult> runs = new ArrayList<>();
        try (ParticleBackend backend = c.backendOptions.open();
             TemperedPath path = problem.annealingPath(backend, c.pathOptions())) {
            AnnealedImportanceSampling.Start start = forward ? null : problem.reverseStart(c.reverseStart, path, chains);
            for (int b = 0; b < c.replicates; b++) {
                var ais = new AnnealedImportanceSampling(
                        new AnnealedImportanceSampling.Settings(chains, schedule, Philox.replicateSeed(c.seed, b)));
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(forward ? ais.forward(path, progress) : ais.reverse(path, start, progress));
                }
            }
            describePath(path, report);
        }
        AnnealingResult r = runs.get(0);
        report.put("logZ", r.logZ());
        report.put("stderr", r.stdErr());
        report.put("stderrMethod", "delta method on the importance weights");
        report.put("ess", r.ess());
        report.put("chains", r.chains());
        report.put("steps", r.steps());
        report.put("schedule", r.schedule());
        report.put("start", r.start());
        report.put("sweeps", runs.stream().mapToLong(AnnealingResult::sweeps).sum());
        report.put("logZ0", r.logZ0());
        report.put("trace", r.trace());
        if (c.workFile != null) {
            ValueFiles.write(c.workFile, r.work());
        }
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT, "%d chains × %d steps (%s schedule, start %s), ESS %.1f",
                r.chains(), r.steps(), r.schedule(), r.start(), r.ess()));
    }

    /** The path's description and, for RBMs, where the base rate came from. */
    static void describePath(TemperedPath path, Map<String, Object> report) {
        report.put("path", path.description());
        if (path.model() instanceof TemperedRbm rbm) {
            report.put("baseRate", rbm.baseRate().source());
        }
    }
}
