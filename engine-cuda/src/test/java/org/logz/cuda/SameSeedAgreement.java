package org.logz.cuda;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.aisel.Aisel;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.ep.ProbitEp;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.ParallelTempering;
import org.logz.estimate.tempered.PtResult;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.estimate.work.WorkEstimate;
import org.logz.kernel.HmcSettings;
import org.logz.model.BaseRate;
import org.logz.model.GpClassification;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PointwiseLikelihood;
import org.logz.model.PseudoMarginal;
import org.logz.model.RandomRbm;
import org.logz.model.TemperedModel;
import org.logz.model.data.DataSequence;
import org.logz.model.gmm.GaussianMixture;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.gpc.WhitenedGpc;
import org.logz.model.ising.Ising;
import org.logz.model.latent.LatentFiles;
import org.logz.model.mixture.MixtureFiles;
import org.logz.model.potts.Potts;
import org.logz.model.rbm.MarginalRbm;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.GpcSequence;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.schedule.Varopt;
import org.logz.testkit.Fixtures;
import org.logz.testkit.GpcKernelContract;
import org.logz.train.RbmTrainer;
import org.logz.train.RtsTracker;
import org.logz.train.TrainingMethod;
import org.logz.train.TrainingRun;

/**
 * Every estimator on every model it applies to, with one seed per run, small enough for the emulator:
 * AIS, RAISE and the nonequilibrium estimators of a bidirectional run on an RBM (on its full and its marginal path,
 * the latter also under RTS, PT and SMC), the Ising model, the Potts model (heat-bath and Metropolis), the Gaussian
 * toy and GP classification from the prior and from EP (elliptical slice and HMC), and the Gaussian mixture by HMC;
 * RTS, TI, TI-RB and MBAR on the RBM, the Ising and Potts models, the mixture and GP classification; the four
 * sequential variants on the digits RBM and three on GP
 * classification; AIS on a VAROPT schedule (pilot included) on the RBM; the SMC sampler's three estimates on the
 * RBM, the Ising and Potts models, the toy and GP classification; parallel tempering's readings, its communication
 * barrier and round trips on the RBM, the Ising and Potts models and GP classification, and BAR from the forward run's end states; AISEL on the GLMM (fixed and automatic N) and the
 * stochastic volatility model; PCD training with RTS tracking. Two backends given the same seeds should return the same estimates.
 */
final class SameSeedAgreement {
    /** An estimate and its standard error (NaN where the run has none). */
    record Value(double logZ, double stdErr) {
    }

    private SameSeedAgreement() {
    }

    /** Every estimate, keyed by model and estimator, in a fixed order. */
    static Map<String, Value> estimates(ParticleBackend backend) {
        Map<String, Value> out = new LinkedHashMap<>();
        TemperedModel rbm = new TemperedRbm(RandomRbm.create(24, 14, 1.0, 91), BaseRate.uniform(24));
        Ising ising = new Ising(6);
        MarginalRbm marginal = new MarginalRbm(RandomRbm.create(24, 14, 1.0, 91));
        annealing(backend, "rbm", rbm, new Start.Exact(), out);
        annealing(backend, "marginal rbm", marginal, new Start.Exact(), out);
        annealing(backend, "ising", ising, new Start.Given(ising.groundStates(120), "ground", 10), out);
        annealing(backend, "toy", GaussianToy.habeck(), new Start.Exact(), out);
        Potts potts = new Potts(5, 6, 1);
        Potts pottsMetropolis = new Potts(5, 6, 1, Potts.Moves.METROPOLIS);
        annealing(backend, "potts", potts, new Start.Given(potts.groundStates(120), "ground", 10), out);
        annealing(backend, "potts metropolis", pottsMetropolis, new Start.Given(potts.groundStates(120), "ground", 10),
                out);
        GpClassification gpc = GpcKernelContract.problem();
        ProbitEp.Result ep = ProbitEp.run(gpc, ProbitEp.Settings.defaults());
        annealing(backend, "gpc prior", TemperedGpc.fromPrior(gpc), new Start.Gibbs(10), out);
        annealing(backend, "gpc ep", TemperedGpc.fromEp(gpc, ep.siteTau(), ep.siteNu()), new Start.Gibbs(10), out);
        tempered(backend, "rbm", rbm, out);
        tempered(backend, "marginal rbm", marginal, out);
        tempered(backend, "ising", ising, out);
        tempered(backend, "potts", potts, out);
        tempered(backend, "gpc ep", TemperedGpc.fromEp(gpc, ep.siteTau(), ep.siteNu()), out);
        parallelTempering(backend, "rbm", rbm, out);
        parallelTempering(backend, "marginal rbm", marginal, out);
        parallelTempering(backend, "ising", ising, out);
        parallelTempering(backend, "potts", potts, out);
        parallelTempering(backend, "gpc ep", TemperedGpc.fromEp(gpc, ep.siteTau(), ep.siteNu()), out);
        try (TemperedPath path = new TemperedPath(backend, rbm)) {
            BidirectionalResult fromForward = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(120, 100,
                    Schedule.linear(40), 20, 8)).run(path, new Start.Forward(5), ProgressListener.NONE);
            out.put("rbm bar from forward ends", new Value(fromForward.logZ(), fromForward.standardError().orElseThrow()));
        }
        try (TemperedPath path = new TemperedPath(backend, rbm)) {
            Varopt.Plan plan = Varopt.plan(path, 80, new Varopt.Settings(40, 30, 0.05), 5);
            AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(120, plan.schedule(),
                    6)).forward(path, ProgressListener.NONE);
            out.put("rbm ais varopt", new Value(r.logZ(), r.stdErr()));
        }
        smc(backend, "rbm", rbm, out);
        smc(backend, "marginal rbm", marginal, out);
        smc(backend, "ising", ising, out);
        smc(backend, "potts", pottsMetropolis, out);
        smc(backend, "toy", GaussianToy.habeck(), out);
        smc(backend, "gpc prior", TemperedGpc.fromPrior(gpc), out);
        GaussianMixture gmm = new GaussianMixture(3, 3, 1, 0.6, 0.4, 2, HmcSettings.defaults());
        annealing(backend, "gmm", gmm, new Start.Exact(), out);
        tempered(backend, "gmm", gmm, out);
        parallelTempering(backend, "gmm", gmm, out);
        smc(backend, "gmm", gmm, out);
        WhitenedGpc gpcHmc = new WhitenedGpc(TemperedGpc.fromEp(gpc, ep.siteTau(), ep.siteNu()),
                new HmcSettings(20, 0.3, true, 0.65, true));
        annealing(backend, "gpc hmc ep", gpcHmc, new Start.Gibbs(10), out);
        tempered(backend, "gpc hmc ep", gpcHmc, out);
        smc(backend, "gpc hmc ep", gpcHmc, out);
        smc(backend, "mixture", new PseudoMarginal(MixtureFiles.read("sim12"), new Likelihood.Exact()), out);
        aisel(backend, "glmm", LatentFiles.glmm("sim8"), new Aisel.Inner.Fixed(4), Likelihood.Proposal.PRIOR, out);
        aisel(backend, "glmm auto", LatentFiles.glmm("sim8"), new Aisel.Inner.Auto(1), Likelihood.Proposal.LAPLACE, out);
        aisel(backend, "sv", LatentFiles.stochasticVolatility("sim200"), new Aisel.Inner.Fixed(12),
                Likelihood.Proposal.BOOTSTRAP, out);
        sequential(backend, out);
        training(backend, out);
        return out;
    }

    /**
     * PCD training on 300 digits with RTS tracking and an AIS check: the negative phase and the tracking chains run on
     * the backend, so each epoch's log Z, error and AIS check agree only where the sampled states do.
     */
    private static void training(ParticleBackend backend, Map<String, Value> out) {
        BinaryDataset digits = Datasets.load("digits");
        TrainingRun.Settings s = new TrainingRun.Settings(new RbmTrainer.Settings(16, 2,
                new TrainingMethod.Persistent(50), 50, 0.05, 0.5, 1e-4, 4), TrainingRun.Tracking.RTS,
                new RtsTracker.Settings(64, 8, 2, 8, 0.2, 2, 8, 1, 5), 1, new TrainingRun.Check(2, 32, 30), 100);
        TrainingRun.Result r = TrainingRun.run(digits.head(300), Optional.of(digits.range(300, 100)), s, backend,
                TrainingRun.Listener.NONE);
        for (TrainingRun.Epoch e : r.epochs()) {
            out.put("training epoch " + e.epoch() + " rts", new Value(e.logZ(), e.stdErr()));
            out.put("training epoch " + e.epoch() + " validation", new Value(e.validationLogLikelihood(), Double.NaN));
        }
        TrainingRun.Epoch last = r.epochs().get(r.epochs().size() - 1);
        out.put("training ais check", new Value(last.aisLogZ(), last.aisStdErr()));
    }

    private static void annealing(ParticleBackend backend, String name, TemperedModel model, Start start,
                                  Map<String, Value> out) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            AnnealedImportanceSampling ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(120,
                    Schedule.linear(60), 3));
            AnnealingResult forward = ais.forward(path, ProgressListener.NONE);
            out.put(name + " ais", new Value(forward.logZ(), forward.stdErr()));
            AnnealingResult reverse = ais.reverse(path, start, ProgressListener.NONE);
            out.put(name + " raise", new Value(reverse.logZ(), reverse.stdErr()));
            BidirectionalResult both = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(120, 120,
                    Schedule.linear(40), 20, 4)).run(path, start, ProgressListener.NONE);
            for (WorkEstimate e : both.estimates()) {
                out.put(name + " " + e.method(), new Value(both.logZ(e.method()), e.stdErr().orElse(Double.NaN)));
            }
        }
    }

    /** The SMC sampler with adaptive tempering and multinomial resampling: its three estimates and the Lee-Whiteley error. */
    private static void smc(ParticleBackend backend, String name, TemperedModel model, Map<String, Value> out) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            SmcResult r = new SmcSampler(new SmcSampler.Settings(120, new SmcSampler.Steps.Adaptive(0.9, 2000), 0.5,
                    ResamplingScheme.MULTINOMIAL, 13, Method.SMC)).run(path, ProgressListener.NONE);
            for (SmcResult.Reading e : r.readings()) {
                out.put(name + " " + e.method(), new Value(e.logZ(), e.stdErr().orElse(Double.NaN)));
            }
        }
    }

    /** AISEL: its two estimates, the Lee-Whiteley error and the variance of the log likelihood estimates. */
    private static void aisel(ParticleBackend backend, String name, LatentModel model, Aisel.Inner inner,
                              Likelihood.Proposal proposal, Map<String, Value> out) {
        AiselResult r = new Aisel(new Aisel.Settings(new SmcSampler.Settings(60, new SmcSampler.Steps.Adaptive(0.8, 2000),
                0.5, ResamplingScheme.MULTINOMIAL, 17, Method.SMC), inner, proposal, 2)).run(backend, model,
                ProgressListener.NONE);
        for (SmcResult.Reading e : r.smc().readings()) {
            out.put(name + " aisel " + e.method(), new Value(e.logZ(), e.stdErr().orElse(Double.NaN)));
        }
        out.put(name + " aisel variance", new Value(r.variance(), r.likelihood().draws()));
    }

    private static void tempered(ParticleBackend backend, String name, TemperedModel model, Map<String, Value> out) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            TemperedResult r = new TemperedSampling(new TemperedSampling.Settings(60, Schedule.linear(29), null, 20, 3, 300,
                    10, 1500, 5)).run(path, ProgressListener.NONE);
            for (LevelEstimate e : r.estimates()) {
                out.put(name + " " + e.method(), new Value(e.logZ(), e.stdErr()));
            }
        }
    }

    /** Parallel tempering: swaps are decided on the host from the backend's log densities, so they must match too. */
    private static void parallelTempering(ParticleBackend backend, String name, TemperedModel model, Map<String, Value> out) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            PtResult r = new ParallelTempering(new ParallelTempering.Settings(4, Schedule.linear(11), 2, 20, 200, 1000, 9))
                    .run(path, ProgressListener.NONE);
            for (LevelEstimate e : r.estimates()) {
                out.put(name + " pt " + e.method(), new Value(e.logZ(), e.stdErr()));
            }
            out.put(name + " pt barrier", new Value(r.barrier(), r.totalRoundTrips()));
        }
    }

    private static void sequential(ParticleBackend backend, Map<String, Value> out) {
        var f = Fixtures.digits64x16();
        BinaryDataset digits = Datasets.load("digits");
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(f.rbm(), UnitOrder.byVariance(digits),
                Optional.of(digits)))) {
            for (ResampleMove.Variant variant : ResampleMove.Variant.values()) {
                SequentialResult r = new ResampleMove(new ResampleMove.Settings(variant, 120, 4, 0.7, 0.7, 3,
                        ResamplingScheme.RESIDUAL, 100, 100, 7)).run(path, ProgressListener.NONE);
                out.put("digits " + variant.cliName(), new Value(r.logZ(), r.stdErr().orElse(Double.NaN)));
            }
        }
        GpcSequence gpc = new GpcSequence(GpcKernelContract.problem(), UnitOrder.random(6, 3));
        try (SequentialPath path = new SequentialPath(backend, gpc)) {
            for (ResampleMove.Variant variant : new ResampleMove.Variant[] {ResampleMove.Variant.RM, ResampleMove.Variant.ARM,
                    ResampleMove.Variant.ANTICIPATE}) {
                SequentialResult r = new ResampleMove(new ResampleMove.Settings(variant, 150, 1, 0.9, 0.7, 50,
                        ResamplingScheme.MULTINOMIAL, 1, 100, 9)).run(path, ProgressListener.NONE);
                out.put("gpc " + variant.cliName(), new Value(r.logZ(), r.stdErr().orElse(Double.NaN)));
            }
        }
        dataAnnealing(backend, "mixture", MixtureFiles.read("sim12"), 200, out);
        dataAnnealing(backend, "glmm", LatentFiles.glmm("sim8"), 40, out);
    }

    /** rm, arm and arm-anticipate entering the model's data points one at a time (random order 3). */
    private static void dataAnnealing(ParticleBackend backend, String name, PointwiseLikelihood model, int particles,
                                      Map<String, Value> out) {
        try (SequentialPath path = new SequentialPath(backend, new DataSequence(model, UnitOrder.random(model.points(), 3)))) {
            for (ResampleMove.Variant variant : new ResampleMove.Variant[] {ResampleMove.Variant.RM, ResampleMove.Variant.ARM,
                    ResampleMove.Variant.ANTICIPATE}) {
                SequentialResult r = new ResampleMove(new ResampleMove.Settings(variant, particles, 3, 0.7, 0.7, 3,
                        ResamplingScheme.MULTINOMIAL, 1, 100, 11)).run(path, ProgressListener.NONE);
                out.put(name + " data " + variant.cliName(), new Value(r.logZ(), r.stdErr().orElse(Double.NaN)));
            }
        }
    }
}
