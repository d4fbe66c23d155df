package org.logz.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.logz.UserException;
import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.data.BinaryDataset;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.path.RbmSequence;
import org.logz.path.SequentialPath;
import org.logz.path.UnitOrder;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;

/** {@code --method rm|arm|arm-anticipate|arm-reseed}: the sequential path of an RBM. */
final class SequentialRuns {
    private SequentialRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        if (!(problem instanceof Problem.RbmProblem rbmProblem)) {
            throw new UserException("--method " + c.method + " builds up an RBM's visible units; it does not "
                    + "apply to " + problem.describe().model());
        }
        ModelSource source = rbmProblem.source();
        ResampleMove.Variant variant = ResampleMove.Variant.parse(c.method.toString());
        Optional<BinaryDataset> dataSet = Optional.ofNullable(c.data).map(source::dataSet);
        UnitOrder unitOrder = UnitOrder.parse(c.order, source.rbm().visible(), dataSet);
        ResamplingScheme scheme = ResamplingScheme.parse(c.resampling);
        List<SequentialResult> runs = new ArrayList<>();
        try (ParticleBackend backend = c.backendOptions.open();
             SequentialPath path = new SequentialPath(backend, new RbmSequence(source.rbm(), unitOrder, dataSet))) {
            for (int b = 0; b < c.replicates; b++) {
                var settings = new ResampleMove.Settings(variant, c.particles, c.gibbsSteps, c.gammaThreshold, c.essThreshold,
                        c.maxGenerate, scheme, c.reseedSweeps, 100, Philox.replicateSeed(c.seed, b));
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(new ResampleMove(settings).run(path, progress));
                }
            }
        }
        SequentialResult r = runs.get(0);
        boolean arm = variant != ResampleMove.Variant.RM;
        var details = new EstimateReport.Sequential(r.ess(), r.particles(), r.meanParticles(),
                runs.stream().mapToLong(SequentialResult::particleSteps).sum(), r.resamplings(), unitOrder.name(),
                scheme.cliName(), c.gibbsSteps, arm ? c.gammaThreshold : null, arm ? c.maxGenerate : null,
                arm ? null : c.essThreshold, variant == ResampleMove.Variant.RESEED ? c.reseedSweeps : null, r.logZ0(),
                r.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "R = %d particles (mean R_n %.1f), %d resamplings, %d particle-steps", r.particles(), r.meanParticles(),
                r.resamplings(), r.particleSteps()), null, r.stdErr().isPresent() ? "Lee-Whiteley (single run)"
                : variant == ResampleMove.Variant.RM && scheme == ResamplingScheme.MULTINOMIAL
                ? "none: the Lee-Whiteley variance estimate was not positive in this run; use --replicates B"
                : "none from one run of this method; use --replicates B (or rm with --resampling multinomial)", details);
    }
}
