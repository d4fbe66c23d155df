package org.logz.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Method;
import org.logz.io.ValueFiles;
import org.logz.model.TemperedGpc;
import org.logz.model.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;

/** {@code --method ais|raise}: one annealing direction. */
final class AnnealingRuns {
    private AnnealingRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        int chains = c.chains(1000);
        boolean forward = c.method == Method.AIS;
        List<AnnealingResult> runs = new ArrayList<>();
        PathDescription described;
        EstimateCommand.Planned planned;
        try (ParticleBackend backend = c.backendOptions.open();
             TemperedPath path = problem.annealingPath(backend, c.pathOptions())) {
            planned = c.schedule(problem, path);
            Schedule schedule = planned.schedule();
            AnnealedImportanceSampling.Start start = forward ? null : problem.reverseStart(c.reverseStart, path, chains);
            for (int b = 0; b < c.replicates; b++) {
                var ais = new AnnealedImportanceSampling(
                        new AnnealedImportanceSampling.Settings(chains, schedule, Philox.replicateSeed(c.seed, b)));
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(forward ? ais.forward(path, progress) : ais.reverse(path, start, progress));
                }
            }
            described = PathDescription.of(path);
        }
        AnnealingResult r = runs.get(0);
        if (c.workFile != null) {
            ValueFiles.write(c.workFile, r.work());
        }
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        var details = new EstimateReport.Annealing(r.ess(), r.chains(), r.steps(), r.schedule(), r.start(),
                runs.stream().mapToLong(AnnealingResult::sweeps).sum() + planned.pilotSweeps(),
                planned.pilotSweeps() > 0 ? planned.pilotSweeps() : null, r.logZ0(), r.trace());
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT, "%d chains × %d steps (%s schedule%s), ESS %.1f",
                r.chains(), r.steps(), r.schedule(), forward ? "" : ", reverse start " + r.start(), r.ess()), described,
                "delta method on the importance weights", details);
    }

    /**
     * The path's description, where an RBM's base rate came from and a GP classifier's start (prior or
     * ep); null where they do not apply.
     */
    record PathDescription(String path, String baseRate, String base) {
        static PathDescription of(TemperedPath path) {
            return new PathDescription(path.description(),
                    path.model() instanceof TemperedRbm rbm ? rbm.baseRate().source() : null,
                    path.model() instanceof TemperedGpc gpc ? gpc.start().toString() : null);
        }
    }
}
