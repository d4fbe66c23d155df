package org.logz.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem, Map<String, Object> report) {
        if (!(problem instanceof Problem.RbmProblem rbmProblem)) {
            throw new UserException("--method " + c.method + " builds up an RBM's visible units; it does not "
                    + "apply to " + problem.describe().get("model"));
        }
        ModelSource source = rbmProblem.source();
        ResampleMove.Variant variant = ResampleMove.Variant.parse(c.method);
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
        report.put("logZ", r.logZ());
        report.put("stderr", r.stdErr().isPresent() ? r.stdErr().getAsDouble() : null);
        report.put("stderrMethod", r.stdErr().isPresent() ? "Lee-Whiteley (single run)"
                : "none from one run of this method; use --replicates B (or rm with --resampling multinomial)");
        report.put("ess", r.ess());
        report.put("particles", r.particles());
        report.put("meanParticles", r.meanParticles());
        report.put("particleSteps", runs.stream().mapToLong(SequentialResult::particleSteps).sum());
        report.put("resamplings", r.resamplings());
        report.put("order", unitOrder.name());
        report.put("resampling", scheme.cliName());
        report.put("gibbsSteps", c.gibbsSteps);
        if (variant != ResampleMove.Variant.RM) {
            report.put("gammaThreshold", c.gammaThreshold);
            report.put("maxGenerate", c.maxGenerate);
        } else {
            report.put("essThreshold", c.essThreshold);
        }
        if (variant == ResampleMove.Variant.RESEED) {
            report.put("reseedSweeps", c.reseedSweeps);
        }
        report.put("logZ0", r.logZ0());
        report.put("trace", r.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "R = %d particles (mean R_n %.1f), %d resamplings, %d particle-steps", r.particles(), r.meanParticles(),
                r.resamplings(), r.particleSteps()));
    }
}
