package org.logz.cli;

import java.util.List;
import java.util.Locale;

import org.logz.api.Outcome;
import org.logz.cli.plot.TracePlot;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.path.GpcSequence;
import org.logz.resample.ResamplingScheme;

/** {@code --method rm|arm|arm-anticipate|arm-reseed}: the report of the sequential path of an RBM or a GP classifier. */
final class SequentialReport {
    private SequentialReport() {
    }

    static EstimateCommand.Runs report(EstimateCommand c, Outcome o) {
        List<SequentialResult> runs = EstimateCommand.runs(o, SequentialResult.class);
        var plan = (Outcome.Plan.Sequential) o.plan();
        ResampleMove.Settings s = plan.settings();
        ResamplingScheme scheme = plan.scheme();
        GpcSequence gpc = plan.gpc();
        SequentialResult r = runs.get(0);
        boolean arm = s.variant() != ResampleMove.Variant.RM;
        var details = new EstimateReport.Sequential(r.ess(), r.particles(), r.islands(), r.meanParticles(),
                runs.stream().mapToLong(SequentialResult::particleSteps).sum(), r.resamplings(), plan.order(),
                scheme.cliName(), s.gibbsSteps(), arm ? s.gammaThreshold() : null, arm ? s.maxGenerate() : null,
                arm ? null : s.essThreshold(), s.variant() == ResampleMove.Variant.RESEED ? s.reseedSweeps() : null,
                gpc == null ? null : gpc.maxPrecisionDrift(), gpc == null ? null : gpc.precisionRefactorizations(),
                r.logZ0(), EstimateReport.AllocationReport.of(r.allocation()), r.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "R = %d particles%s (mean R_n %.1f), %d resamplings, %d particle-steps", r.particles(),
                r.islands() > 1 ? " in each of " + r.islands() + " islands" : "",
                r.meanParticles(), r.resamplings(), r.particleSteps()), null,
                r.islands() > 1 ? "spread of " + r.islands() + " islands"
                : r.stdErr().isPresent() ? "Lee-Whiteley (single run)"
                : s.variant() == ResampleMove.Variant.RM && scheme == ResamplingScheme.MULTINOMIAL
                ? "none: the Lee-Whiteley variance estimate was not positive in this run; use --replicates B"
                : "none from one population of this method; use --islands B or --replicates B (or rm with --resampling "
                + "multinomial)", details,
                o.modelWarnings());
    }
}
