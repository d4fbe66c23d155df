package org.logz.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.logz.api.Outcome;
import org.logz.cli.plot.TracePlot;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Method;
import org.logz.io.ValueFiles;
import org.logz.model.AnnealedMarginal;
import org.logz.options.AnnealingOptions;
import org.logz.options.SharedOptions;

/** {@code --method ais|raise}: the report of one annealing direction. */
final class AnnealingReport {
    private AnnealingReport() {
    }

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        List<AnnealingResult> runs = EstimateCommand.runs(o, AnnealingResult.class);
        boolean forward = c.method == Method.AIS;
        AnnealingResult r = runs.get(0);
        Path work = c.given(AnnealingOptions.WORK);
        if (work != null) {
            ValueFiles.write(work, r.work());
        }
        List<AnnealedMarginal> lag = lag(c, o, forward, r.start());
        if (c.plot != null) {
            TracePlot.write(c.plot, r, lag);
        }
        long pilot = o.pilotSweeps();
        var details = new EstimateReport.Annealing(r.ess(), r.chains(), r.steps(), r.schedule(), r.start(),
                runs.stream().mapToLong(AnnealingResult::sweeps).sum() + pilot, pilot > 0 ? pilot : null, r.logZ0(),
                r.forwardStart().map(f -> new Json.Estimate(f.logZ(), f.stdErr())).orElse(null), r.trace(),
                lag.isEmpty() ? null : lag);
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT, "%d chains × %d steps (%s schedule%s), ESS %.1f",
                r.chains(), r.steps(), r.schedule(), forward ? "" : ", reverse start " + r.start()
                        + r.forwardStart().map(f -> String.format(Locale.ROOT, " (its forward run's AIS %.4f ± %.4f)",
                        f.logZ(), f.stdErr())).orElse(""), r.ess()), o.path(),
                "delta method on the importance weights", details, o.modelWarnings());
    }

    /**
     * The chains' marginals against the path's equilibria where the model has them in closed form (the Gaussian toy,
     * Habeck Fig. 1B): forward runs, and reverse runs from the exact start; empty otherwise.
     */
    static List<AnnealedMarginal> lag(EstimateCommand c, Outcome o, boolean forward, String start) {
        if (!forward && !start.equals("exact")) {
            return List.of();
        }
        Integer sweeps = c.given(SharedOptions.SWEEPS_PER_STEP);
        return c.problem.annealedMarginals(((Outcome.Plan.Annealing) o.plan()).schedule().betas(), forward,
                sweeps == null ? SharedOptions.SWEEPS_PER_STEP.defaultValue() : sweeps);
    }
}
