package org.logz.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.LongFunction;

import org.logz.backend.ParticleBackend;
import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Estimate;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Islands;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.Warning;
import org.logz.estimate.aisel.Aisel;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.estimate.ep.CorrectedEp;
import org.logz.estimate.ep.ProbitEp;
import org.logz.estimate.work.HistogramGibbs;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.estimate.tempered.ParallelTempering;
import org.logz.estimate.tempered.PtResult;
import org.logz.estimate.tempered.StageResult;
import org.logz.estimate.tempered.TemperedPart;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.estimate.tempered.TemperedStage;
import org.logz.model.GpClassification;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.SequentialModel;
import org.logz.memory.Footprint;
import org.logz.options.AnnealingOptions;
import org.logz.options.Family;
import org.logz.options.FamilyOption;
import org.logz.options.SequentialOptions;
import org.logz.options.SharedOptions;
import org.logz.options.SmcOptions;
import org.logz.options.TemperingOptions;
import org.logz.path.GpcSequence;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.problem.ModelFamilies;
import org.logz.problem.Problem;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

/**
 * Runs one family's replicates for {@link Estimation#outcome}: opens the backend and the path once, keys replicate b
 * by {@link Philox#replicateSeed}, and resolves the options the model has its own defaults for.
 */
final class Runner {
    /** Condition number of K + I beyond which the Gibbs conditionals lose more than five digits. */
    static final double ILL_CONDITIONED = 1e11;
    /** Condition number of K + I beyond which a failed sequential run names it as the likely cause. */
    static final double SUSPECT_CONDITION = 1e6;

    private final Estimation e;
    private final int first;
    private final int count;
    private final IntFunction<? extends ProgressListener> listeners;

    /** A runner of replicates {@code first} to {@code first + count - 1}; none when count is 0 (the plan alone). */
    Runner(Estimation e, int first, int count, IntFunction<? extends ProgressListener> listeners) {
        this.e = e;
        this.first = first;
        this.count = count;
        this.listeners = listeners;
    }

    /** One replicate's run with its listener. */
    private interface Replicate<E> {
        E run(long seed, ProgressListener listener);
    }

    /** Every replicate in turn; a listener that is {@link AutoCloseable} is closed after its run. */
    private <E> List<E> replicates(Replicate<E> run) {
        List<E> runs = new ArrayList<>();
        for (int b = first; b < first + count; b++) {
            ProgressListener given = listeners.apply(b);
            ProgressListener listener = given == null ? ProgressListener.NONE : given;
            E result;
            try {
                result = run.run(Philox.replicateSeed(e.seed, b), listener);
            } catch (RuntimeException | Error failure) {
                // the run's own error is what the caller needs; a listener that fails to close only adds to it
                if (listener instanceof AutoCloseable closeable) {
                    try {
                        closeable.close();
                    } catch (Exception suppressed) {
                        failure.addSuppressed(suppressed);
                    }
                }
                throw failure;
            }
            if (listener instanceof AutoCloseable closeable) {
                close(closeable);
            }
            runs.add(result);
        }
        return runs;
    }

    private static void close(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (RuntimeException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IllegalStateException("closing a progress listener failed", ex);
        }
    }

    /**
     * The path options of a run of {@code particles} chains or particles on {@code backend}, after the checks that need
     * no path: its cost, and whether its chains' states alone fit (the hostile review's r03: 10^6 chains of a 5000×5000
     * RBM refused only after 116 s of the default base rate's work).
     */
    private Problem.PathOptions pathOptions(ParticleBackend backend, long particles) {
        Problem.PathOptions options = e.pathOptions();
        e.problem.checkCost(options, particles);
        backend.require(new Footprint(Footprint.times(particles, e.problem.bytesPerChain(options)), 0, 0),
                e.method + " with " + particles + " chains on " + e.problem.describe().model());
        return options;
    }

    /**
     * How the reverse chains of the replicate keyed by {@code seed} start: a data start draws its examples under that
     * key, so that replicates (and every part of one) start from their own.
     */
    private AnnealedImportanceSampling.Start reverseStart(TemperedPath path, int chains, long seed) {
        return e.problem.reverseStart(e.get(AnnealingOptions.REVERSE_START), path, chains,
                e.pathOptions().withSeed(seed));
    }

    /**
     * {@code unverified} for any one estimator on an RBM too large to enumerate ({@link Warning#unverified}), whether it
     * follows {@code onePath} to the target (one annealing direction, the SMC sampler, rm/arm) or not; nothing
     * otherwise.
     */
    private List<Warning> unverified(boolean onePath) {
        return e.problem.unverified() ? List.of(Warning.unverified(e.method, onePath)) : List.of();
    }

    /** ais or raise: one annealing direction. */
    Outcome annealing() {
        boolean forward = e.method == Method.AIS;
        int chains = e.chains();
        Checkpointing checkpoints = e.checkpointing();
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.annealingPath(backend, pathOptions(backend, chains))) {
                Estimation.Planned planned = e.schedule(path);
                if (!forward) {
                    // the start's own checks, before a plan hands the run to tasks
                    reverseStart(path, chains, e.seed);
                }
                // the settings' own checks, before a plan hands the run to tasks
                new AnnealedImportanceSampling.Settings(chains, planned.schedule(), e.seed);
                List<AnnealingResult> runs = replicates((seed, listener) -> {
                    var ais = new AnnealedImportanceSampling(
                            new AnnealedImportanceSampling.Settings(chains, planned.schedule(), seed), checkpoints);
                    return forward ? ais.forward(path, listener) : ais.reverse(path, reverseStart(path, chains, seed),
                            listener);
                });
                return new Outcome(runs, Outcome.PathDescription.of(path), planned.pilotSweeps(),
                        new Outcome.Plan.Annealing(planned.schedule(), 0, e.get(AnnealingOptions.BOOTSTRAPS), histogram()),
                        unverified(true));
            }
        });
    }

    /** bar, cumulant or histogram: forward and reverse annealing on one schedule. */
    Outcome work() {
        int forwardChains = e.chains();
        int reverseChains = e.reverseChains();
        Checkpointing checkpoints = e.checkpointing();
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.annealingPath(backend,
                    pathOptions(backend, Math.max(forwardChains, reverseChains)))) {
                Estimation.Planned planned = e.schedule(path);
                // the start's and the settings' own checks (chains, bootstraps), before a plan hands the run to tasks
                reverseStart(path, reverseChains, e.seed);
                workSettings(forwardChains, reverseChains, planned.schedule(), e.seed);
                List<BidirectionalResult> runs = replicates((seed, listener) -> new BidirectionalAnnealing(
                        workSettings(forwardChains, reverseChains, planned.schedule(), seed), checkpoints)
                        .run(path, reverseStart(path, reverseChains, seed), listener));
                return new Outcome(runs, Outcome.PathDescription.of(path), planned.pilotSweeps(),
                        new Outcome.Plan.Annealing(planned.schedule(), reverseChains, e.get(AnnealingOptions.BOOTSTRAPS),
                                histogram()),
                        unverified(false));
            }
        });
    }

    /**
     * The chain parts {@code parts} of ais, raise, bar, cumulant or histogram replicates, on one backend and path: the
     * replicate's seed, schedule and reverse start as a whole run has them, each part's chains keyed by their indices.
     */
    List<AnnealingResult> parts(List<ChainPart> parts) {
        int forwardChains = e.chains();
        int reverseChains = e.reverseChains();
        boolean anyReverse = parts.stream().anyMatch(ChainPart::reverse);
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.annealingPath(backend,
                    pathOptions(backend, Math.max(forwardChains, reverseChains)))) {
                Estimation.Planned planned = e.schedule(path);
                if (anyReverse) {
                    reverseStart(path, reverseChains, e.seed);
                }
                List<AnnealingResult> results = new ArrayList<>();
                for (ChainPart part : parts) {
                    long seed = Philox.replicateSeed(e.seed, part.replicate());
                    var ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(
                            part.reverse() ? reverseChains : forwardChains, planned.schedule(), seed));
                    results.add(part.reverse()
                            ? ais.reversePart(path, reverseStart(path, reverseChains, seed), part.firstChain(),
                            part.chains(), ProgressListener.NONE)
                            : ais.forwardPart(path, part.firstChain(), part.chains(), ProgressListener.NONE));
                }
                return results;
            }
        });
    }

    /**
     * The replicates whose chain parts ran apart, put together: each direction of a replicate from its parts
     * ({@link AnnealedImportanceSampling#combine}), judged (ais, raise) or read by the work estimators (bar, cumulant,
     * histogram) as the single-process run does, completing the driver's {@code plan}.
     */
    Outcome combine(Outcome plan, List<ChainPart> parts, List<? extends AnnealingResult> results) {
        if (parts.size() != results.size()) {
            throw new IllegalArgumentException(parts.size() + " chain parts but " + results.size() + " results");
        }
        Map<Integer, List<AnnealingResult>> forward = new TreeMap<>();
        Map<Integer, List<AnnealingResult>> reverse = new TreeMap<>();
        for (int i = 0; i < parts.size(); i++) {
            ChainPart part = parts.get(i);
            (part.reverse() ? reverse : forward).computeIfAbsent(part.replicate(), b -> new ArrayList<>()).add(results.get(i));
        }
        Schedule schedule = ((Outcome.Plan.Annealing) plan.plan()).schedule();
        int forwardChains = e.chains();
        int reverseChains = e.reverseChains();
        List<Estimate> runs = new ArrayList<>();
        if (e.method == Method.AIS || e.method == Method.RAISE) {
            for (List<AnnealingResult> replicate : (e.method == Method.AIS ? forward : reverse).values()) {
                runs.add(whole(AnnealedImportanceSampling.combine(replicate), forwardChains).requirePossible());
            }
        } else {
            for (int b : forward.keySet()) {
                AnnealingResult f = whole(AnnealedImportanceSampling.combine(forward.get(b)), forwardChains);
                AnnealingResult r = whole(AnnealedImportanceSampling.combine(reverse.getOrDefault(b, List.of())),
                        reverseChains);
                runs.add(new BidirectionalAnnealing(workSettings(forwardChains, reverseChains, schedule,
                        Philox.replicateSeed(e.seed, b))).estimate(f, r));
            }
        }
        return plan.withReplicates(runs);
    }

    /** The settings of the work estimators' run keyed by {@code seed}, with the histogram's bootstrap resamples. */
    private BidirectionalAnnealing.Settings workSettings(int forwardChains, int reverseChains, Schedule schedule,
                                                         long seed) {
        return new BidirectionalAnnealing.Settings(forwardChains, reverseChains, schedule,
                e.get(AnnealingOptions.BOOTSTRAPS), seed, e.method, histogram());
    }

    /** The density of states' bins and the Gibbs sampler's draws (histogram, histogram-gibbs). */
    private HistogramGibbs.Settings histogram() {
        return new HistogramGibbs.Settings(e.get(AnnealingOptions.BIN_WIDTH), e.get(AnnealingOptions.GIBBS_SAMPLES),
                e.get(AnnealingOptions.GIBBS_BURN_IN));
    }

    /** {@code run}, refused unless its parts covered all {@code chains} of the run. */
    private static AnnealingResult whole(AnnealingResult run, int chains) {
        if (run.chains() != chains) {
            throw new IllegalArgumentException("the parts of " + run.method() + " seed " + run.seed() + " hold "
                    + run.chains() + " chains of " + chains);
        }
        return run;
    }

    /** rts, ti, ti-rb or mbar: one tempered sampling run read by all four estimators. */
    Outcome tempered() {
        // the settings are checked before anything runs, also where this is the plan of a distributed run
        TemperedSampling.Settings settings = temperedSettings(e.seed);
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.temperingPath(backend, pathOptions(backend, settings.chains()))) {
                Checkpointing checkpoints = e.checkpointing();
                List<TemperedResult> runs = replicates((seed, listener) -> new TemperedSampling(temperedSettings(seed),
                        checkpoints).run(path, listener));
                return new Outcome(runs, Outcome.PathDescription.of(path), 0,
                        new Outcome.Plan.Tempered(settings, e.priorName()), unverified(false));
            }
        });
    }

    /** The settings of the tempered sampling run keyed by {@code seed}. */
    TemperedSampling.Settings temperedSettings(long seed) {
        int mbarSamples = e.get(TemperingOptions.MBAR_SAMPLES);
        if (mbarSamples == 0 && e.method == Method.MBAR) {
            throw new UserException("--method mbar needs --mbar-samples above 0");
        }
        return new TemperedSampling.Settings(e.chains(), e.ladder(), e.logPrior(), e.get(TemperingOptions.ROUND_SWEEPS),
                e.get(TemperingOptions.ROUNDS), e.get(TemperingOptions.SWEEPS), e.get(TemperingOptions.BATCHES),
                mbarSamples, seed, e.method, TemperingOptions.flatStart(e.get(TemperingOptions.INITIAL_Z)));
    }

    /** pt: parallel tempering read by BAR between neighbouring levels, MBAR and TI. */
    Outcome parallelTempering() {
        // the settings are checked before anything runs, also where this is the plan of a distributed run
        ParallelTempering.Settings settings = ptSettings(e.seed);
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.temperingPath(backend, pathOptions(backend, settings.chains()))) {
                List<PtResult> runs = replicates((seed, listener) -> new ParallelTempering(ptSettings(seed))
                        .run(path, listener));
                return new Outcome(runs, Outcome.PathDescription.of(path), 0,
                        new Outcome.Plan.ParallelTempering(settings), unverified(false));
            }
        });
    }

    /** The settings of the parallel tempering run keyed by {@code seed}. */
    ParallelTempering.Settings ptSettings(long seed) {
        return new ParallelTempering.Settings(e.get(TemperingOptions.LADDERS), e.ladder(),
                e.get(TemperingOptions.ROUNDS), e.get(TemperingOptions.ROUND_SWEEPS), e.get(TemperingOptions.SWEEPS),
                e.get(TemperingOptions.MBAR_SAMPLES), seed);
    }

    /**
     * One stage of tempered sampling runs split by chains, on one backend and path: each part whose replicate has a
     * stage in {@code stages} continues from its state and runs it; the others are returned as they are.
     */
    List<StagedPart> runStage(Map<Integer, TemperedStage> stages, List<StagedPart> parts) {
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.temperingPath(backend, e.pathOptions())) {
                List<StagedPart> out = new ArrayList<>(parts.size());
                for (StagedPart p : parts) {
                    TemperedStage stage = stages.get(p.part().replicate());
                    if (stage == null) {
                        out.add(p);
                        continue;
                    }
                    TemperedSampling run = new TemperedSampling(temperedSettings(Philox.replicateSeed(e.seed,
                            p.part().replicate())));
                    try (TemperedPart part = run.part(path, p.part().firstChain(), p.part().chains())) {
                        if (p.state() != null) {
                            part.restore(p.state());
                        }
                        StageResult result = part.run(stage, TemperedPart.Stretches.NONE);
                        out.add(new StagedPart(p.part(), part.state(), result));
                    }
                }
                return out;
            }
        });
    }

    /** rm, arm, arm-anticipate or arm-reseed: the sequential path of an RBM or a GP classifier, or data annealing. */
    Outcome sequential() {
        ResampleMove.Variant variant = ResampleMove.Variant.parse(e.method.toString());
        Problem.Sequence sequence = e.problem.sequence(e.get(SequentialOptions.ORDER), e.data, variant, e.method);
        UnitOrder unitOrder = sequence.order();
        SequentialModel model = sequence.model();
        GpcSequence gpc = sequence.classifier();
        ResamplingScheme scheme = ResamplingScheme.parse(e.get(SequentialOptions.RESAMPLING));
        // a GP classifier's defaults are the ARM paper's (§4.2), an RBM's the tables'
        boolean classifier = gpc != null;
        int gibbsSteps = classifier ? e.getOr(SequentialOptions.GIBBS_STEPS, SequentialOptions.GPC_GIBBS_STEPS)
                : e.get(SequentialOptions.GIBBS_STEPS);
        double gammaThreshold = e.get(SequentialOptions.GAMMA_THRESHOLD);
        double essThreshold = classifier ? e.getOr(SequentialOptions.ESS_THRESHOLD, SequentialOptions.GPC_ESS_THRESHOLD)
                : e.get(SequentialOptions.ESS_THRESHOLD);
        int maxGenerate = classifier ? e.getOr(SequentialOptions.MAX_GENERATE, SequentialOptions.GPC_MAX_GENERATE)
                : e.get(SequentialOptions.MAX_GENERATE);
        LongFunction<ResampleMove.Settings> settingsFor = seed -> new ResampleMove.Settings(variant,
                e.get(SequentialOptions.PARTICLES), gibbsSteps, gammaThreshold, essThreshold, maxGenerate, scheme,
                e.get(SequentialOptions.RESEED_SWEEPS), 100, seed);
        ResampleMove.Settings settings = settingsFor.apply(e.seed);
        // one population has a sound standard error only for Resample-Move with multinomial resampling (Lee-Whiteley)
        int islands = e.given(SequentialOptions.ISLANDS.name()) ? e.get(SequentialOptions.ISLANDS)
                : variant == ResampleMove.Variant.RM && scheme == ResamplingScheme.MULTINOMIAL ? 1 : Islands.DEFAULT;
        if (islands > 1) {
            // the islands' own checks, before a plan hands the run to tasks
            Islands.check(islands);
        }
        List<SequentialResult> runs;
        try {
            runs = e.withBackend(backend -> {
                try (SequentialPath path = new SequentialPath(backend, model)) {
                    return replicates((seed, listener) -> islands > 1
                            ? Islands.run(settingsFor.apply(seed), islands, path, listener)
                            : new ResampleMove(settingsFor.apply(seed)).run(path, listener));
                }
            });
        } catch (EstimationException failure) {
            if (gpc == null || gpc.conditionEstimate() <= SUSPECT_CONDITION
                    || failure instanceof ImpossibleEstimateException) {
                throw failure;
            }
            // the hostile review's gpv_dup_rm: degenerate weights on duplicated inputs, the cause unnamed (at log σ = 11
            // the condition number is about 1e9, below the warning's, and the weights still fail)
            throw new EstimationException(failure.getMessage() + "; the likely cause: " + (gpc.conditionEstimate()
                    > ILL_CONDITIONED ? Warning.illConditioned(gpc.conditionEstimate()).message() : String.format(
                    Locale.ROOT, "K + I has a condition number of about %.1e; use a smaller log σ",
                    gpc.conditionEstimate())));
        }
        List<Warning> warnings = gpc != null && gpc.conditionEstimate() > ILL_CONDITIONED
                ? List.of(Warning.illConditioned(gpc.conditionEstimate())) : unverified(true);
        return new Outcome(runs, null, 0, new Outcome.Plan.Sequential(unitOrder.name(), scheme, settings, gpc), warnings);
    }

    /** smc, power-posterior or power-posterior-corrected: one SMC sampler run read by its three estimators. */
    Outcome smc() {
        ResamplingScheme scheme = scheme();
        Checkpointing checkpoints = e.checkpointing();
        return e.withBackend(backend -> {
            try (TemperedPath path = e.problem.annealingPath(backend, pathOptions(backend, e.get(SequentialOptions.PARTICLES)))) {
                SmcSampler.Steps steps;
                long pilotSweeps = 0;
                if (adaptive()) {
                    steps = adaptiveSteps();
                } else {
                    Estimation.Planned planned = e.schedule(path);
                    steps = new SmcSampler.Steps.Fixed(planned.schedule());
                    pilotSweeps = planned.pilotSweeps();
                }
                SmcSampler.Steps chosen = steps;
                List<SmcResult> runs = replicates((seed, listener) -> new SmcSampler(new SmcSampler.Settings(
                        e.get(SequentialOptions.PARTICLES), chosen, e.get(SmcOptions.RESAMPLE_THRESHOLD), scheme, seed,
                        e.method), checkpoints).run(path, listener));
                return new Outcome(runs, Outcome.PathDescription.of(path), pilotSweeps,
                        new Outcome.Plan.Smc(steps, scheme, e.get(SmcOptions.RESAMPLE_THRESHOLD)), unverified(true));
            }
        });
    }

    /** aisel: the SMC sampler over θ with an estimated likelihood; replicates re-run everything, the choice of N included. */
    Outcome aisel() {
        LatentModel model = e.problem.latentModel().orElseThrow();
        ResamplingScheme scheme = scheme();
        SmcSampler.Steps steps;
        if (adaptive()) {
            steps = adaptiveSteps();
        } else {
            e.rejectVaropt();
            steps = new SmcSampler.Steps.Fixed(e.fixedSchedule());
        }
        Aisel.Inner inner = e.innerChoice();
        // Aisel checks the whole run's cost before its first sweep (after the pilot of --inner auto)
        double maxSeconds = e.get(SmcOptions.MAX_SECONDS);
        Likelihood.Proposal proposal = e.proposal != null ? Likelihood.Proposal.parse(e.proposal)
                : model.defaultProposal();
        List<AiselResult> results = e.withBackend(backend -> replicates((seed, listener) -> new Aisel(new Aisel.Settings(
                new SmcSampler.Settings(e.get(SequentialOptions.PARTICLES), steps, e.get(SmcOptions.RESAMPLE_THRESHOLD), scheme,
                        seed, Method.SMC), inner, proposal, e.get(SharedOptions.SWEEPS_PER_STEP), maxSeconds)).run(backend, model,
                listener)));
        return new Outcome(List.of(), null, 0, new Outcome.Plan.Aisel(steps, scheme, e.get(SmcOptions.RESAMPLE_THRESHOLD), proposal,
                List.of()), List.of())
                .withReplicates(results);
    }

    /**
     * ep: expectation propagation for GP classification (Rasmussen &amp; Williams, Algorithm 3.5); ep-corrected: with
     * Opper, Paquet &amp; Winther's second-order correction.
     */
    Outcome ep() {
        GpClassification classifier = e.problem.classifier().orElseThrow(() -> new UserException("--method " + e.method
                + " approximates the evidence of " + ModelFamilies.running(Family.APPROXIMATION) + "; it does not apply to "
                + e.problem.describe().model()));
        if (first + count > 1) {
            throw new UserException("--method " + e.method + " is deterministic: replicates would repeat the same number");
        }
        ProbitEp.Settings settings = ProbitEp.Settings.defaults();
        List<Estimate> runs = List.of();
        if (count > 0) {
            ProbitEp.Result ep = ProbitEp.run(classifier, settings);
            runs = List.of(e.method == Method.EP_CORRECTED ? CorrectedEp.of(classifier, ep) : ep);
        }
        return new Outcome(runs, null, 0, new Outcome.Plan.Ep(settings), List.of());
    }

    /** Multinomial by default: the scheme with a sound single-run standard error (Lee &amp; Whiteley). */
    private ResamplingScheme scheme() {
        return ResamplingScheme.parse(e.getOr(SequentialOptions.RESAMPLING, SmcOptions.DEFAULT_RESAMPLING));
    }

    /** Adaptive tempering unless --schedule names a schedule; --ess-target and --max-steps belong to it. */
    private boolean adaptive() {
        String schedule = e.get(AnnealingOptions.SCHEDULE);
        boolean adaptive = !e.given(AnnealingOptions.SCHEDULE.name()) || schedule.trim().equalsIgnoreCase("adaptive");
        if (!adaptive) {
            for (FamilyOption<?> option : List.of(SmcOptions.ESS_TARGET, SmcOptions.MAX_STEPS)) {
                if (e.given(option.name())) {
                    throw new UserException(option.name() + " applies to adaptive tempering (--schedule adaptive), not to "
                            + "--schedule " + schedule);
                }
            }
        }
        return adaptive;
    }

    /** --ess-target and --max-steps; --steps belongs to fixed schedules. */
    private SmcSampler.Steps adaptiveSteps() {
        if (e.given(AnnealingOptions.STEPS.name())) {
            throw new UserException("--steps sets a fixed schedule's steps; adaptive tempering chooses its own (cap "
                    + "them with --max-steps), or give --schedule linear|geometric|...");
        }
        return new SmcSampler.Steps.Adaptive(e.get(SmcOptions.ESS_TARGET), e.get(SmcOptions.MAX_STEPS));
    }
}
