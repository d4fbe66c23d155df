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
import org.logz.estimate.Warning;
import org.logz.model.SequentialModel;
import org.logz.path.GpcSequence;
import org.logz.path.RbmSequence;
import org.logz.path.SequentialPath;
import org.logz.path.UnitOrder;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;

/** {@code --method rm|arm|arm-anticipate|arm-reseed}: the sequential path of an RBM or a GP classifier. */
final class SequentialRuns {
    /** Condition number of K + I beyond which the Gibbs conditionals lose more than five digits. */
    static final double ILL_CONDITIONED = 1e11;

    private SequentialRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        ResampleMove.Variant variant = ResampleMove.Variant.parse(c.method.toString());
        UnitOrder unitOrder;
        SequentialModel model;
        GpcSequence gpc = null;
        if (problem instanceof Problem.RbmProblem rbmProblem) {
            ModelSource source = rbmProblem.source();
            Optional<BinaryDataset> dataSet = Optional.ofNullable(c.data).map(source::dataSet);
            unitOrder = UnitOrder.parse(c.order, source.rbm().visible(), dataSet);
            model = new RbmSequence(source.rbm(), unitOrder, dataSet);
        } else if (problem instanceof Problem.GpcProblem gpcProblem) {
            if (variant == ResampleMove.Variant.RESEED) {
                throw new UserException("arm-reseed restarts chains from data examples of the model's variables; GP "
                        + "classification has none (use arm or arm-anticipate)");
            }
            // the shipped sets list one class after the other: a fixed random order is the default
            unitOrder = UnitOrder.parse(c.order == null ? "random:1" : c.order, gpcProblem.model().size(), Optional.empty());
            gpc = new GpcSequence(gpcProblem.model(), unitOrder);
            model = gpc;
        } else {
            throw new UserException("--method " + c.method + " builds up an RBM's visible units or a GP classifier's "
                    + "cases; it does not apply to " + problem.describe().model());
        }
        ResamplingScheme scheme = ResamplingScheme.parse(c.resampling);
        // the ARM paper's GPC settings (§4.2): one Gibbs sweep per move, γ_thr = 0.9 (and Resample-Move's
        // resampling below 0.9 R), i_max = 50
        int gibbsSteps = gpc != null && !c.matched("--gibbs-steps") ? 1 : c.gibbsSteps;
        double gammaThreshold = gpc != null && !c.matched("--gamma-threshold") ? 0.9 : c.gammaThreshold;
        double essThreshold = gpc != null && !c.matched("--ess-threshold") ? 0.9 : c.essThreshold;
        int maxGenerate = gpc != null && !c.matched("--max-generate") ? 50 : c.maxGenerate;
        List<SequentialResult> runs = new ArrayList<>();
        try (ParticleBackend backend = c.backendOptions.open();
             SequentialPath path = new SequentialPath(backend, model)) {
            for (int b = 0; b < c.replicates; b++) {
                var settings = new ResampleMove.Settings(variant, c.particles, gibbsSteps, gammaThreshold, essThreshold,
                        maxGenerate, scheme, c.reseedSweeps, 100, Philox.replicateSeed(c.seed, b));
                try (Progress progress = Progress.onTerminal(c.method + c.replicateLabel(b))) {
                    runs.add(new ResampleMove(settings).run(path, progress));
                }
            }
        }
        SequentialResult r = runs.get(0);
        boolean arm = variant != ResampleMove.Variant.RM;
        var details = new EstimateReport.Sequential(r.ess(), r.particles(), r.meanParticles(),
                runs.stream().mapToLong(SequentialResult::particleSteps).sum(), r.resamplings(), unitOrder.name(),
                scheme.cliName(), gibbsSteps, arm ? gammaThreshold : null, arm ? maxGenerate : null,
                arm ? null : essThreshold, variant == ResampleMove.Variant.RESEED ? c.reseedSweeps : null,
                gpc == null ? null : gpc.maxPrecisionDrift(), gpc == null ? null : gpc.precisionRefactorizations(),
                r.logZ0(), r.trace());
        if (c.plot != null) {
            TracePlot.write(c.plot, r);
        }
        return new EstimateCommand.Runs(runs, String.format(Locale.ROOT,
                "R = %d particles (mean R_n %.1f), %d resamplings, %d particle-steps", r.particles(), r.meanParticles(),
                r.resamplings(), r.particleSteps()), null, r.stdErr().isPresent() ? "Lee-Whiteley (single run)"
                : variant == ResampleMove.Variant.RM && scheme == ResamplingScheme.MULTINOMIAL
                ? "none: the Lee-Whiteley variance estimate was not positive in this run; use --replicates B"
                : "none from one run of this method; use --replicates B (or rm with --resampling multinomial)", details,
                gpc != null && gpc.conditionEstimate() > ILL_CONDITIONED ? List.of(Warning.illConditioned(
                        gpc.conditionEstimate())) : List.of());
    }
}
