package org.logz.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntFunction;

import org.logz.backend.Backends;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Estimate;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.estimate.aisel.Aisel;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.estimate.tempered.TemperedStage;
import org.logz.io.AtomicFiles;
import org.logz.io.ValueFiles;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.numeric.Decimal;
import org.logz.options.AnnealingOptions;
import org.logz.options.Family;
import org.logz.options.FamilyOption;
import org.logz.options.SequentialOptions;
import org.logz.options.SharedOptions;
import org.logz.options.SmcOptions;
import org.logz.options.TemperingOptions;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamilies;
import org.logz.problem.Problem;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;
import org.logz.schedule.Gms13;
import org.logz.schedule.Varopt;

/**
 * One estimate of log Z, set up like a {@code logz estimate} command line: a model (from {@link org.logz.api.Logz}),
 * a method and the options that method reads, each with the command line's default. {@link #run()} returns the
 * result record; {@link #outcome} runs replicates and returns what the command line reports from.
 *
 * <p>Options are checked when the run starts, with the command line's one-line messages (a {@link UserException}):
 * an option the method does not read is refused by its command-line name ({@code --steps does not apply to --method
 * rts}), as are impossible values. An instance is not thread-safe; it may be run many times, and with
 * {@link #backend(ParticleBackend)} every run reuses the caller's backend (its kernels stay loaded).
 */
public final class Estimation {
    /** See {@link SharedOptions#MAX_REPLICATES}. */
    public static final int MAX_REPLICATES = SharedOptions.MAX_REPLICATES;
    /** σ² of log p̂ above which AISEL warns: pseudo-marginal moves stick (Pitt et al. 2012 put the optimum near 1). */
    public static final double STICKY_VARIANCE = 2;

    /** The options a consensus ({@link #tolerance}) shares with its runs. */
    private static final Set<String> CONSENSUS_OPTIONS = Set.of("--tolerance", "--time-limit", "--data", "--base-rate",
            SharedOptions.START.name(), SharedOptions.PATH.name(), SharedOptions.KERNEL.name(),
            SharedOptions.SWEEPS_PER_STEP.name(), "--backend", "--threads");

    final Problem problem;
    /** The model's exact log Z where the command line compares with one; null until the first run asks. */
    private Optional<Double> exact;
    /** The command-line names of the options set, for the checks of what the method reads. */
    private final Set<String> given = new TreeSet<>();
    Method method = Method.AIS;

    String baseRate = "auto";
    String data;
    private String likelihood;
    String inner;
    String proposal;

    long seed = 1;
    private String backendName = "cpu";
    private Integer threads;
    private ParticleBackend backend;
    private ProgressListener listener = ProgressListener.NONE;
    /** The replicates of the run in progress (checkpoints save one run). */
    private int replicatesRun = 1;

    /**
     * The values of the method families' options that were set, by command-line name; one not set takes its table's
     * default ({@link #get}).
     */
    private final Map<String, Object> values = new HashMap<>();
    /** A schedule planned elsewhere ({@link #planned}), or null. */
    private Planned planned;
    /** Prior weights given as numbers ({@link #prior(double[])}), or null. */
    private double[] priorWeights;

    private Double tolerance;
    private double timeLimit = Consensus.DEFAULT_TIME_LIMIT;
    private Function<String, ProgressListener> listeners;

    /** An estimate on {@code problem} with the command line's defaults; {@link org.logz.api.Logz} names the models. */
    public Estimation(Problem problem) {
        this.problem = value("the model", problem);
    }

    /** The model this estimate runs on. */
    public Problem problem() {
        return problem;
    }

    /** The method that gives the headline. */
    public Method method() {
        return method;
    }

    /** The method by its command-line name ({@code ais}, {@code rts}, {@code arm}, ...). */
    public Estimation method(String name) {
        return method(Family.method(name));
    }

    /** The method that gives the headline (default AIS). */
    public Estimation method(Method m) {
        method = value("--method", m);
        return this;
    }

    /** Annealed importance sampling from the base (Neal 2001, eq. 9). */
    public Estimation ais() {
        return method(Method.AIS);
    }

    /** Reverse AIS from samples of the target (Burda, Grosse &amp; Salakhutdinov 2015). */
    public Estimation raise() {
        return method(Method.RAISE);
    }

    /** Bennett's acceptance ratio on forward and reverse work (Bennett 1976; Habeck 2017, eq. 21). */
    public Estimation bar() {
        return method(Method.BAR);
    }

    /** Rao-Blackwellized tempered sampling (Carlson et al. 2016, eq. 6). */
    public Estimation rts() {
        return method(Method.RTS);
    }

    /** Parallel tempering read by BAR between neighbouring levels, MBAR and TI. */
    public Estimation pt() {
        return method(Method.PT);
    }

    /** Adaptive Resample-Move (Fraccaro et al., Algorithm 2). */
    public Estimation arm() {
        return method(Method.ARM);
    }

    /** The SMC sampler with adaptive tempering (Del Moral et al. 2006; Zhou, Johansen &amp; Aston 2016). */
    public Estimation smc() {
        return method(Method.SMC);
    }

    /** AISEL on a latent-variable model (Tran et al., Algorithm 1). */
    public Estimation aisel() {
        return method(Method.AISEL);
    }

    /** Expectation propagation for GP classification (Rasmussen &amp; Williams, Algorithm 3.5). */
    public Estimation ep() {
        return method(Method.EP);
    }

    /** EP with the second-order correction of Opper, Paquet &amp; Winther (2013, the ARM paper's corrected EP). */
    public Estimation epCorrected() {
        return method(Method.EP_CORRECTED);
    }

    private Estimation set(String option) {
        given.add(option);
        return this;
    }

    /**
     * Sets an option of a method family's table ({@link AnnealingOptions#STEPS}, {@link SequentialOptions#ISLANDS},
     * ...), checked as the table says; the command line sets every family option it is given this way, and each
     * typed setter here is this with its option.
     */
    public <T> Estimation set(FamilyOption<T> option, T value) {
        T checked = value(option.name(), value);
        option.check().accept(checked);
        values.put(option.name(), checked);
        return set(option.name());
    }

    /** The value of a family option: the one set, else its table's default (null where the model or method chooses). */
    <T> T get(FamilyOption<T> option) {
        Object set = values.get(option.name());
        return set != null ? option.type().cast(set) : option.defaultValue();
    }

    /** The value of a family option where it was set, else {@code fallback} (a default that depends on the model). */
    <T> T getOr(FamilyOption<T> option, T fallback) {
        return given(option.name()) ? get(option) : fallback;
    }

    /** {@code v}, or a one-line error naming the option that lacks a value. */
    private static <T> T value(String option, T v) {
        if (v == null) {
            throw new UserException(option + " needs a value, got none (null)");
        }
        return v;
    }

    /** RBMs: the β = 0 distribution, {@code auto}, {@code data}, {@code file}, {@code model}, {@code uniform} or {@code visible-bias}. */
    public Estimation baseRate(String choice) {
        baseRate = value("--base-rate", choice);
        return set("--base-rate");
    }

    /** RBMs: the data set ({@code mnist}, {@code digits} or an .npz file with X) for the base rate and the unit order. */
    public Estimation data(String nameOrFile) {
        data = value("--data", nameOrFile);
        return set("--data");
    }

    /** GP classification: where the tempered likelihood starts, {@code prior} or {@code ep} (the ARM paper's eq. 11). */
    public Estimation start(String where) {
        return set(SharedOptions.START, where);
    }

    /** RBMs: the tempered path, {@code full} (the default) or {@code marginal} (Habeck §6.3, over the hidden units). */
    public Estimation path(String which) {
        return set(SharedOptions.PATH, which);
    }

    /**
     * GP classification: the transition, {@code ellipse} or {@code hmc[:leapfrog=L,step=E|auto[:E],accept=A,jitter=on|off]}
     * (Hamiltonian Monte Carlo in whitened coordinates, ARM Fig. 2's baselines).
     */
    public Estimation kernel(String spec) {
        return set(SharedOptions.KERNEL, spec);
    }

    /** Latent-variable models, methods other than aisel: {@code exact} or {@code estimated}. */
    public Estimation likelihood(String choice) {
        likelihood = value("--likelihood", choice);
        return set("--likelihood");
    }

    /** Latent-variable models: inner draws, {@code N} or (aisel) {@code auto[:V]}. */
    public Estimation inner(String drawsOrAuto) {
        inner = value("--inner", drawsOrAuto);
        return set("--inner");
    }

    /** Latent-variable models: the inner estimator, {@code laplace}, {@code prior} or {@code bootstrap}. */
    public Estimation proposal(String name) {
        proposal = value("--proposal", name);
        return set("--proposal");
    }

    /** Markov transitions per annealing or tempering step (default: {@link SharedOptions#SWEEPS_PER_STEP}). */
    public Estimation sweepsPerStep(int n) {
        return set(SharedOptions.SWEEPS_PER_STEP, n);
    }

    /**
     * The Philox key (default 1): every backend draws the same random numbers for it, so a run gives the same bits on
     * any thread count, and on the CPU and a GPU the same log Z up to float rounding (DESIGN §7).
     */
    public Estimation seed(long key) {
        seed = key;
        return this;
    }

    /** The backend by name ({@code cpu}, the default, or {@code cuda}); opened for each run and closed after it. */
    public Estimation backend(String name) {
        backendName = value("--backend", name);
        backend = null;
        return set("--backend");
    }

    /** Host threads of a backend opened by name (default: all cores); results do not depend on it. */
    public Estimation threads(int count) {
        threads = count;
        return set("--threads");
    }

    /**
     * The caller's backend, used by every run and never closed here: a training loop keeps its kernels loaded. Runs
     * on one backend take turns (each holds the backend's lock while it runs); a backend closed by its owner fails
     * the next run with an {@link IllegalStateException}.
     */
    public Estimation backend(ParticleBackend open) {
        backend = value("--backend", open);
        return set("--backend");
    }

    /** Told of each run's progress, on the run's thread (default: nothing); never closed here. */
    public Estimation listener(ProgressListener progress) {
        listener = progress == null ? ProgressListener.NONE : progress;
        return this;
    }

    /**
     * Annealing, tempered and SMC runs (ais, raise, bar, cumulant, histogram, rts, ti, ti-rb, mbar, smc,
     * power-posterior, power-posterior-corrected): save the run's state to {@code file} every
     * {@link #checkpointEvery} seconds (atomically; tempered sampling at the next end of a stage or of a stretch of its
     * final run, the SMC sampler at the next end of a step), so that a run killed on the way can {@link #resume} with
     * the bits it would have given.
     */
    public Estimation checkpoint(Path file) {
        return set(SharedOptions.CHECKPOINT, file);
    }

    /**
     * The runs of {@link #checkpoint}: seconds of wall time between checkpoints (default: {@link
     * SharedOptions#CHECKPOINT_EVERY}).
     */
    public Estimation checkpointEvery(double seconds) {
        return set(SharedOptions.CHECKPOINT_EVERY, seconds);
    }

    /**
     * The runs of {@link #checkpoint}: continue the run saved in {@code file}, refused when it is of another model,
     * version or settings.
     */
    public Estimation resume(Path file) {
        return set(SharedOptions.RESUME, file);
    }

    /**
     * Annealing: forward chains (default {@link AnnealingOptions#DEFAULT_CHAINS}); tempered sampling: parallel chains
     * (default {@link TemperingOptions#DEFAULT_CHAINS}).
     */
    public Estimation chains(int m) {
        return set(AnnealingOptions.CHAINS, m);
    }

    /** Annealing steps of a fixed schedule (default: {@link AnnealingOptions#STEPS}). */
    public Estimation steps(int k) {
        return set(AnnealingOptions.STEPS, k);
    }

    /**
     * The schedule: {@code linear} (default), {@code geometric[:βmin]}, {@code sigmoid[:δ]}, {@code piecewise:...},
     * {@code salakhutdinov[:K]}, {@code varopt[:...]}, {@code gms13[:...]}, smc also {@code adaptive}.
     */
    public Estimation schedule(String spec) {
        return set(AnnealingOptions.SCHEDULE, spec);
    }

    /**
     * The schedule a {@code varopt} pilot chose elsewhere, with the pilot's sweeps: a distributed run's tasks take the
     * driver's plan rather than each running the pilot again.
     */
    public Estimation planned(Schedule chosen, long pilotSweeps) {
        value("the planned schedule", chosen);
        if (pilotSweeps < 0) {
            throw new UserException("a pilot's sweeps cannot be negative, got " + pilotSweeps);
        }
        planned = new Planned(chosen, pilotSweeps);
        return this;
    }

    /** Reverse runs: {@code exact}, {@code gibbs:B}, {@code ground} or {@code ground:B} (Ising). */
    public Estimation reverseStart(String spec) {
        return set(AnnealingOptions.REVERSE_START, spec);
    }

    /** bar, cumulant, histogram: reverse chains (default: the forward chains). */
    public Estimation reverseChains(int m) {
        return set(AnnealingOptions.REVERSE_CHAINS, m);
    }

    /** histogram: bootstrap resamples behind its standard error (default: {@link AnnealingOptions#BOOTSTRAPS}). */
    public Estimation bootstraps(int b) {
        return set(AnnealingOptions.BOOTSTRAPS, b);
    }

    /** histogram, histogram-gibbs: the density of states' bin width (default 0, one bin per work value). */
    public Estimation binWidth(double h) {
        return set(AnnealingOptions.BIN_WIDTH, h);
    }

    /** histogram-gibbs: posterior draws kept (default: {@link AnnealingOptions#GIBBS_SAMPLES}). */
    public Estimation gibbsSamples(int s) {
        return set(AnnealingOptions.GIBBS_SAMPLES, s);
    }

    /** histogram-gibbs: sweeps discarded first (default: {@link AnnealingOptions#GIBBS_BURN_IN}). */
    public Estimation gibbsBurnIn(int b) {
        return set(AnnealingOptions.GIBBS_BURN_IN, b);
    }

    /** Tempered sampling: inverse temperatures in the ladder (default: {@link TemperingOptions#LEVELS}). */
    public Estimation levels(int k) {
        return set(TemperingOptions.LEVELS, k);
    }

    /**
     * Parallel tempering: independent ladders of one replica per level, whose spread is the standard error (default:
     * {@link TemperingOptions#LADDERS}).
     */
    public Estimation ladders(int m) {
        return set(TemperingOptions.LADDERS, m);
    }

    /** Tempered sampling: the ladder's spacing ({@code linear}, {@code geometric[:βmin]}, {@code sigmoid[:δ]}). */
    public Estimation ladder(String spec) {
        return set(TemperingOptions.LADDER, spec);
    }

    /** Tempered sampling: iterations of the final run (default: {@link TemperingOptions#SWEEPS}). */
    public Estimation sweeps(int n) {
        return set(TemperingOptions.SWEEPS, n);
    }

    /**
     * Tempered sampling: iterations of the first initial round (default: {@link TemperingOptions#ROUND_SWEEPS}; RTS
     * §2.4).
     */
    public Estimation roundSweeps(int n) {
        return set(TemperingOptions.ROUND_SWEEPS, n);
    }

    /** Tempered sampling: most initial rounds (default: {@link TemperingOptions#ROUNDS}). */
    public Estimation rounds(int r) {
        return set(TemperingOptions.ROUNDS, r);
    }

    /**
     * Tempered sampling: where log Ẑ starts, {@code "ais"} (an annealing pass) or {@code "one"} (Ẑ = 1, Carlson et
     * al. §2.4; default: {@link TemperingOptions#INITIAL_Z}).
     */
    public Estimation initialZ(String from) {
        return set(TemperingOptions.INITIAL_Z, from);
    }

    /**
     * Tempered sampling: groups of chains behind the batch-means standard errors (default: {@link
     * TemperingOptions#BATCHES}).
     */
    public Estimation batches(int b) {
        return set(TemperingOptions.BATCHES, b);
    }

    /** Tempered sampling: chain states kept for MBAR (default: {@link TemperingOptions#MBAR_SAMPLES}; 0 skips MBAR). */
    public Estimation mbarSamples(int n) {
        return set(TemperingOptions.MBAR_SAMPLES, n);
    }

    /** Tempered sampling: prior weights r_k over the levels, one positive number per line of the file. */
    public Estimation prior(Path file) {
        set(TemperingOptions.PRIOR, file);
        priorWeights = null;
        return this;
    }

    /** Tempered sampling: prior weights r_k over the levels (normalized; copied). */
    public Estimation prior(double[] weights) {
        priorWeights = value("--prior", weights).clone();
        values.remove(TemperingOptions.PRIOR.name());
        return set("--prior");
    }

    /**
     * rm/arm: base number of particles R; smc and aisel: particles M (default: {@link SequentialOptions#PARTICLES}).
     */
    public Estimation particles(int r) {
        return set(SequentialOptions.PARTICLES, r);
    }

    /**
     * rm/arm: Gibbs sweeps per move step (default: {@link SequentialOptions#GIBBS_STEPS}; {@link
     * SequentialOptions#GPC_GIBBS_STEPS} for GP classification).
     */
    public Estimation gibbsSteps(int t) {
        return set(SequentialOptions.GIBBS_STEPS, t);
    }

    /**
     * arm: generate while ESS/R_n &lt; g (default: {@link SequentialOptions#GAMMA_THRESHOLD}, the ARM paper's 0.7).
     */
    public Estimation gammaThreshold(double g) {
        return set(SequentialOptions.GAMMA_THRESHOLD, g);
    }

    /**
     * rm: resample when ESS &lt; e·R (default: {@link SequentialOptions#ESS_THRESHOLD}; {@link
     * SequentialOptions#GPC_ESS_THRESHOLD} for GP classification).
     */
    public Estimation essThreshold(double e) {
        return set(SequentialOptions.ESS_THRESHOLD, e);
    }

    /**
     * arm: most batches generated per iteration (default: {@link SequentialOptions#MAX_GENERATE}; {@link
     * SequentialOptions#GPC_MAX_GENERATE} for GP classification).
     */
    public Estimation maxGenerate(int i) {
        return set(SequentialOptions.MAX_GENERATE, i);
    }

    /** rm/arm unit order: {@code natural}, {@code variance} (needs data) or {@code random:SEED}. */
    public Estimation order(String spec) {
        return set(SequentialOptions.ORDER, spec);
    }

    /** rm/arm/smc: {@code residual} (rm/arm default), {@code systematic} or {@code multinomial} (smc default). */
    public Estimation resampling(String scheme) {
        return set(SequentialOptions.RESAMPLING, scheme);
    }

    /**
     * rm/arm: independent populations of {@link #particles} each, whose spread is the standard error
     * ({@link org.logz.estimate.Islands}); default 4 where one population has no sound error (the ARM variants, and rm
     * without multinomial resampling), else 1 (one population; at least 4 otherwise).
     */
    public Estimation islands(int b) {
        return set(SequentialOptions.ISLANDS, b);
    }

    /** arm-reseed: Gibbs sweeps of each new chain (default: {@link SequentialOptions#RESEED_SWEEPS}). */
    public Estimation reseedSweeps(int g) {
        return set(SequentialOptions.RESEED_SWEEPS, g);
    }

    /** smc, aisel: the conditional-ESS target ρ of adaptive tempering (default: {@link SmcOptions#ESS_TARGET}). */
    public Estimation essTarget(double rho) {
        return set(SmcOptions.ESS_TARGET, rho);
    }

    /**
     * smc, aisel: the most adaptive steps before the run stops with an error (default: {@link SmcOptions#MAX_STEPS}).
     */
    public Estimation maxSteps(int k) {
        return set(SmcOptions.MAX_STEPS, k);
    }

    /**
     * aisel: refuse a run whose up-front time estimate exceeds this many seconds (default:
     * {@link SmcOptions#MAX_SECONDS}, an hour).
     */
    public Estimation maxSeconds(double seconds) {
        return set(SmcOptions.MAX_SECONDS, seconds);
    }

    /** smc, aisel: resample when the ESS falls below α·M (default: {@link SmcOptions#RESAMPLE_THRESHOLD}). */
    public Estimation resampleThreshold(double alpha) {
        return set(SmcOptions.RESAMPLE_THRESHOLD, alpha);
    }

    /**
     * Answers to a requested accuracy ({@link Consensus}): {@link #run()} then runs two estimators chosen for the model,
     * doubling their budgets until both standard errors are below {@code nats}/2 and they agree within it, and returns
     * a {@link ConsensusResult}. The method and its options are the consensus's own; the model, data, base rate,
     * backend, threads and seed are shared.
     */
    public Estimation tolerance(double nats) {
        tolerance = nats;
        return set("--tolerance");
    }

    /** With {@link #tolerance}: the wall time in seconds after which no new round starts (default an hour). */
    public Estimation timeLimit(double seconds) {
        timeLimit = seconds;
        return set("--time-limit");
    }

    /**
     * With {@link #tolerance}: a progress listener for each of its runs, given the run's label, closed after the run
     * where it is {@link AutoCloseable} (without a tolerance, {@link #listener} is the one).
     */
    public Estimation listeners(Function<String, ProgressListener> perRun) {
        listeners = perRun;
        return this;
    }

    /** The backend's name as runs open it ({@code cpu}, {@code cuda}, or the caller's backend's). */
    String backendName() {
        return backend != null ? backend.name() : backendName;
    }

    /**
     * A new estimation of {@code m} on the same model with this one's data, base rate, GP start and kernel, transitions per step,
     * backend, threads and seed, each only where it was set; the method's own options at their defaults.
     */
    Estimation derived(Method m) {
        Estimation d = new Estimation(problem).method(m).seed(seed);
        d.listener(listener);
        if (given("--data")) {
            d.data(data);
        }
        if (given("--base-rate")) {
            d.baseRate(baseRate);
        }
        for (FamilyOption<?> shared : List.of(SharedOptions.START, SharedOptions.PATH, SharedOptions.KERNEL,
                SharedOptions.SWEEPS_PER_STEP)) {
            copy(shared, d);
        }
        if (backend != null) {
            d.backend(backend);
        } else if (given("--backend")) {
            d.backend(backendName);
        }
        if (given("--threads")) {
            d.threads(threads);
        }
        return d;
    }

    /** Sets {@code option} on {@code d} where it was set here. */
    private <T> void copy(FamilyOption<T> option, Estimation d) {
        if (given(option.name())) {
            d.set(option, get(option));
        }
    }

    /** Whether the option of this command-line name was set. */
    boolean given(String option) {
        return given.contains(option);
    }

    /**
     * One run with this seed: the headline method's result record, with the warnings of its own diagnostics, of the
     * model (an ill-conditioned covariance, a noisy likelihood), of the model's bound on log Z and of its exact log Z
     * where the command line compares with one (the demo RBM, Ising, the Gaussian toy, small GP classifiers, a
     * GLMM's quadrature).
     */
    public Result run() {
        if (tolerance != null) {
            ConsensusResult answer = consensus();
            return new Result(answer, answer.warnings());
        }
        ProgressListener progress = listener;
        Outcome o = outcome(1, b -> progress::progress);
        Estimate first = o.runs().get(0);
        requireWithinBound(first);
        List<Warning> warnings = new ArrayList<>(first.warnings());
        warnings.addAll(o.modelWarnings());
        if (exact == null) {
            // once per estimation: a GLMM's quadrature takes seconds, and a training loop runs the same one again
            exact = problem.exactLogZ(false);
        }
        warnings.addAll(boundWarnings(first.logZ(), first.standardError(),
                exact.isPresent() ? OptionalDouble.of(exact.get()) : OptionalDouble.empty()));
        return new Result(first, List.copyOf(warnings));
    }

    /** The consensus of {@link #tolerance}, refused with options it chooses itself. */
    ConsensusResult consensus() {
        for (String option : given) {
            if (!CONSENSUS_OPTIONS.contains(option)) {
                throw new UserException(option + " does not apply with --tolerance, which chooses the estimators and "
                        + "their budgets");
            }
        }
        problem.pathRefusal(Method.CONSENSUS, pathOptions()).ifPresent(refusal -> {
            throw new UserException(refusal);
        });
        ProgressListener progress = listener;
        return new Consensus(this, tolerance, timeLimit, listeners != null ? listeners : label -> progress).run();
    }

    /**
     * {@code replicates} runs, replicate b keyed by {@code Philox.replicateSeed(seed, b)}, on one backend and path,
     * with the listener {@code listeners} gives each (none for null; closed after its run when it is
     * {@link AutoCloseable}).
     */
    public Outcome outcome(int replicates, IntFunction<? extends ProgressListener> listeners) {
        checkReplicates(replicates);
        return outcome(0, replicates, listeners);
    }

    /**
     * Replicates {@code first} to {@code first + count - 1} of this estimation, keyed as in {@link #outcome(int,
     * IntFunction)}: what one task of a distributed run computes. With {@code count} 0 it runs nothing and returns
     * the plan (schedule, ladder or steps, with any pilot run) that its tasks' records complete through
     * {@link Outcome#withReplicates}.
     */
    public Outcome outcome(int first, int count, IntFunction<? extends ProgressListener> listeners) {
        if (first < 0 || count < 0 || (long) first + count > MAX_REPLICATES) {
            throw new UserException("replicates " + first + " to " + ((long) first + count - 1) + " do not lie within 0 to "
                    + (MAX_REPLICATES - 1));
        }
        value("the listeners", listeners);
        if (tolerance != null) {
            throw new UserException("--tolerance chooses its own runs: use run(), not replicates or a distributed plan");
        }
        replicatesRun = count;
        Family family = check();
        Runner runner = new Runner(this, first, count, listeners);
        return switch (family) {
            case ANNEALING -> runner.annealing();
            case WORK -> runner.work();
            case TEMPERED -> runner.tempered();
            case PARALLEL_TEMPERING -> runner.parallelTempering();
            case SEQUENTIAL -> runner.sequential();
            case SMC -> runner.smc();
            case AISEL -> runner.aisel();
            case APPROXIMATION -> runner.ep();
        };
    }

    /**
     * Whether one run's chains can be split ({@link #chainParts}): annealing and the nonequilibrium estimators (ais,
     * raise, bar, cumulant, histogram) run their parts apart ({@link #run(List)}); tempered sampling (rts, ti, ti-rb,
     * mbar) runs them in stages, one per initial round ({@link #runStage}). The other methods couple their chains
     * through resampling, and the pseudo-marginal moves of latent-variable models follow the whole cloud.
     */
    public boolean splitsChains() {
        Family family = check();
        return (family == Family.ANNEALING || family == Family.WORK || family == Family.TEMPERED)
                && problem.independentChains(pathOptions()) && !forwardStart();
    }

    /** Whether reverse chains start from the forward run's end states, which a run split by chains does not have. */
    private boolean forwardStart() {
        String reverseStart = get(AnnealingOptions.REVERSE_START);
        if (reverseStart == null) {
            // the model's default applies to the runs that have reverse chains
            return problem.reverseStartsFromForward() && (method == Method.RAISE || Family.of(method) == Family.WORK);
        }
        return reverseStart.trim().toLowerCase(Locale.ROOT).startsWith("forward");
    }

    /** Whether the chain parts of a run split by chains run in stages ({@link #runStage}): tempered sampling. */
    public boolean stagesChains() {
        return check() == Family.TEMPERED;
    }

    /**
     * Replicates {@code 0 .. replicates - 1} split by chains into at least {@code tasks} parts where the chains allow,
     * for a run spread over machines: each direction of each replicate in the same number of ranges
     * ({@link ChainPart#ranges}), replicate by replicate, forward parts before reverse ones; a tempered run's chains
     * on the blocks of its sums ({@link TemperedSampling.Settings#blockChains()}), as few parts as its blocks
     * allow.
     *
     * @throws UserException where {@link #splitsChains()} is false
     */
    public List<ChainPart> chainParts(int replicates, int tasks) {
        checkReplicates(replicates);
        if (tasks < 1) {
            throw new UserException("a run splits into at least 1 part, got " + tasks);
        }
        if (!splitsChains()) {
            Family family = Family.of(method);
            throw new UserException(forwardStart() ? "--reverse-start forward needs the whole forward run's end states, "
                    + "so one run's chains do not split"
                    : family == Family.ANNEALING || family == Family.WORK || family == Family.TEMPERED
                    ? "the pseudo-marginal moves of " + problem.describe().model() + " follow the whole cloud of "
                    + "particles, so one run's chains do not split"
                    : "--method " + method + " couples its chains (through " + (family == Family.PARALLEL_TEMPERING
                    ? "swaps" : "resampling") + "); only ais, raise, bar, cumulant, "
                    + "histogram, rts, ti, ti-rb and mbar split one run's chains");
        }
        if (stagesChains()) {
            return temperedParts(replicates, tasks);
        }
        boolean forward = method != Method.RAISE;
        boolean reverse = method != Method.AIS;
        int directions = forward && reverse ? 2 : 1;
        int perRun = (int) Math.min(Integer.MAX_VALUE, ((long) tasks + (long) replicates * directions - 1)
                / ((long) replicates * directions));
        int forwardChains = chains();
        int reverseChains = reverseChains();
        List<ChainPart> parts = new ArrayList<>();
        for (int b = 0; b < replicates; b++) {
            if (forward) {
                for (int[] range : ChainPart.ranges(forwardChains, perRun)) {
                    parts.add(new ChainPart(b, false, range[0], range[1]));
                }
            }
            if (reverse) {
                for (int[] range : ChainPart.ranges(reverseChains, perRun)) {
                    parts.add(new ChainPart(b, true, range[0], range[1]));
                }
            }
        }
        return parts;
    }

    /** Each replicate's tempered run in {@code ceil(tasks / replicates)} ranges on the blocks of its sums. */
    private List<ChainPart> temperedParts(int replicates, int tasks) {
        int perRun = (int) Math.min(Integer.MAX_VALUE, ((long) tasks + replicates - 1) / replicates);
        List<ChainPart> parts = new ArrayList<>();
        for (int b = 0; b < replicates; b++) {
            TemperedSampling.Settings settings = temperedSettings(b);
            for (int[] range : ChainPart.ranges(settings.chains(), perRun, settings.blockChains())) {
                parts.add(new ChainPart(b, false, range[0], range[1]));
            }
        }
        return parts;
    }

    /** The settings of replicate {@code replicate}'s tempered sampling run (rts, ti, ti-rb, mbar), checked. */
    public TemperedSampling.Settings temperedSettings(int replicate) {
        checkReplicates(replicate + 1);
        if (check() != Family.TEMPERED) {
            throw new UserException("--method " + method + " is no tempered sampling method");
        }
        return new Runner(this, 0, 0, b -> null).temperedSettings(Philox.replicateSeed(seed, replicate));
    }

    /**
     * Runs one stage of tempered sampling runs split by chains here, on one backend: every part whose replicate has
     * a stage in {@code stages} (from its run's {@link org.logz.estimate.tempered.TemperedCoordinator}) continues from its state; the others are
     * returned unchanged. What one task of a run split by chains computes, once per stage.
     */
    public List<StagedPart> runStage(Map<Integer, TemperedStage> stages, List<StagedPart> parts) {
        value("the stages", stages);
        value("the parts", parts);
        if (!stagesChains()) {
            throw new UserException("--method " + method + " does not run its chains in stages");
        }
        return new Runner(this, 0, 0, b -> null).runStage(stages, parts);
    }

    /**
     * Runs the chain parts {@code parts} (of {@link #chainParts}) here, on one backend, and returns their partial
     * results in order: what one task of a run split by chains computes.
     */
    public List<AnnealingResult> run(List<ChainPart> parts) {
        value("the chain parts", parts);
        Family family = check();
        if (family == Family.TEMPERED) {
            throw new UserException("--method " + method + " runs its chain parts in stages (runStage), not at once");
        }
        if (family != Family.ANNEALING && family != Family.WORK) {
            throw new UserException("--method " + method + " does not split by chains");
        }
        return new Runner(this, 0, 0, b -> null).parts(parts);
    }

    /**
     * The outcome of a run split by chains: the results of {@code parts} (from {@link #run(List)}, anywhere), put
     * together replicate by replicate into the records a single process would return, completing {@code plan}
     * ({@link #outcome(int, int, IntFunction)} with no replicates). On the CPU backend the estimates and standard
     * errors are the single process's to the bit.
     */
    public Outcome combine(Outcome plan, List<ChainPart> parts, List<? extends AnnealingResult> results) {
        value("the plan", plan);
        if (!(plan.plan() instanceof Outcome.Plan.Annealing)) {
            throw new IllegalArgumentException("not the plan of an annealing run: " + plan.plan());
        }
        return new Runner(this, 0, 0, b -> null).combine(plan, parts, results);
    }

    /**
     * What the model's bound and exact value say against an estimate: {@code exact-disagrees} away from the exact value
     * by more than four standard errors (0.1 without a standard error), {@code above-bound} above the model's upper
     * bound (within its noise: beyond, {@link #requireWithinBound} refuses a run).
     */
    public List<Warning> boundWarnings(double logZ, OptionalDouble stdErr, OptionalDouble exact) {
        List<Warning> warnings = new ArrayList<>();
        // without a standard error only a miss beyond 0.1 is flagged: the run's noise is unknown
        if (exact.isPresent() && Math.abs(logZ - exact.getAsDouble())
                > (stdErr.isEmpty() ? 0.1 : Math.max(4 * stdErr.getAsDouble(), 0.05))) {
            warnings.add(Warning.exactDisagrees(logZ, stdErr.orElse(Double.NaN), exact.getAsDouble()));
        }
        Optional<Double> bound = problem.logZUpperBound();
        if (bound.isPresent() && logZ > bound.get() + 1e-9 * (1 + Math.abs(bound.get()))) {
            warnings.add(Warning.aboveBound(method, logZ, bound.get(), problem.upperBoundReason()));
        }
        return warnings;
    }

    /**
     * Refuses a run whose estimate exceeds the model's upper bound by more than three standard errors
     * ({@link ImpossibleEstimateException#checkAbove}), as a run below a visited state is refused.
     */
    public void requireWithinBound(Estimate run) {
        Optional<Double> bound = problem.logZUpperBound();
        if (bound.isPresent()) {
            ImpossibleEstimateException.checkAbove(method, run.logZ(), run.standardError().orElse(0), bound.get(),
                    problem.upperBoundReason());
        }
    }

    /** Refuses a replicate count outside 1 to {@link #MAX_REPLICATES}. */
    public static void checkReplicates(int replicates) {
        if (replicates < 1 || replicates > MAX_REPLICATES) {
            throw new UserException("--replicates must be between 1 and " + MAX_REPLICATES + ", got "
                    + replicates + " (each replicate is a whole run, kept with its trace)");
        }
    }

    /**
     * Checks, before anything runs, that the method reads every option set and that the model takes the method,
     * with the command line's messages; returns the method's family. (The values themselves are checked as the run
     * starts.)
     */
    public Family check() {
        Family family = Family.of(method);
        for (String option : given) {
            if (Family.familyOption(option) && !family.reads(option)) {
                throw new UserException(option + " does not apply to --method " + method);
            }
        }
        if (family == Family.APPROXIMATION) {
            for (String option : new String[] {"--chains", "--backend", "--threads"}) {
                if (given(option)) {
                    throw new UserException(option + " does not apply to --method " + method
                            + " (a deterministic approximation on the host)");
                }
            }
        }
        if (family == Family.PARALLEL_TEMPERING && given("--chains")) {
            throw new UserException("--chains does not apply to --method pt; it runs --ladders × --levels chains");
        }
        if ((family == Family.SEQUENTIAL || family == Family.SMC || family == Family.AISEL) && given("--chains")) {
            throw new UserException("--chains does not apply to --method " + method
                    + (family != Family.SEQUENTIAL ? "; the SMC sampler's particles are --particles" : ""));
        }
        for (String option : new TreeSet<>(Family.notFor(method))) {
            if (given(option)) {
                throw new UserException(option + " does not apply to --method " + method);
            }
        }
        for (String option : new String[] {"--data", "--base-rate"}) {
            if (!problem.family().options().contains(option) && given(option)) {
                throw new UserException(option + " applies to " + ModelFamilies.readers(option) + " only");
            }
        }
        for (String option : new String[] {"--start", "--path", "--kernel"}) {
            if (!problem.family().options().contains(option) && given(option)) {
                throw new UserException(option + " applies to " + ModelFamilies.readers(option) + " only");
            }
        }
        checkLatent(family);
        return family;
    }

    /** --inner, --proposal and --likelihood belong to latent-variable models, and those to the methods that anneal θ. */
    private void checkLatent(Family family) {
        for (String option : new String[] {"--inner", "--proposal", "--likelihood"}) {
            if (!problem.family().options().contains(option) && given(option)) {
                throw new UserException(option + " applies to " + ModelFamilies.readers(option) + " only");
            }
        }
        if (method == Method.AISEL && !problem.family().methods().contains(Family.AISEL)) {
            throw new UserException("--method aisel needs a latent-variable model: --model glmm:SET|FILE or sv:SET|FILE");
        }
        if (method == Method.AISEL && given("--inner")) {
            // before the exact evidence's quadrature (seconds on the shipped GLMMs), not after it
            innerChoice();
        }
        if (!problem.family().methods().contains(family)) {
            problem.refusal(method).ifPresent(refusal -> {
                throw new UserException(refusal);
            });
        }
        problem.pathRefusal(method, pathOptions()).ifPresent(refusal -> {
            throw new UserException(refusal);
        });
        if (family == Family.SEQUENTIAL) {
            for (String option : new String[] {"--inner", "--proposal", "--likelihood"}) {
                if (given(option)) {
                    throw new UserException(option + " does not apply to --method " + method + ": data annealing "
                            + "enters each group's exact likelihood");
                }
            }
        }
        if (method == Method.AISEL && given("--likelihood")) {
            throw new UserException("aisel estimates the likelihood; for the exact one use --method smc --likelihood exact");
        }
    }

    /** The options of the model's path; a latent-variable model's likelihood from --likelihood, --inner and --proposal. */
    Problem.PathOptions pathOptions() {
        Likelihood l = problem.latentModel().filter(latent -> method != Method.AISEL).map(this::latentLikelihood)
                .orElse(null);
        return new Problem.PathOptions(baseRate, data, get(SharedOptions.SWEEPS_PER_STEP), seed, get(SharedOptions.START), l,
                get(SharedOptions.PATH), get(SharedOptions.KERNEL));
    }

    /** The likelihood of --likelihood, --inner and --proposal for methods other than aisel; null for the model's default. */
    private Likelihood latentLikelihood(LatentModel model) {
        String choice = likelihood == null ? null : likelihood.trim().toLowerCase(Locale.ROOT);
        if (choice != null && !choice.equals("exact") && !choice.equals("estimated")) {
            throw new UserException("--likelihood must be exact or estimated, got " + likelihood);
        }
        if ("exact".equals(choice)) {
            if (given("--inner") || given("--proposal")) {
                throw new UserException("--inner and --proposal set an estimated likelihood; drop them or --likelihood exact");
            }
            return new Likelihood.Exact();
        }
        if ("estimated".equals(choice) || given("--inner") || given("--proposal")) {
            int draws = Likelihood.Estimated.DEFAULT_DRAWS;
            if (given("--inner")) {
                if (!(innerChoice() instanceof Aisel.Inner.Fixed fixed)) {
                    throw new UserException("--inner auto applies to --method aisel; give --inner N");
                }
                draws = fixed.draws();
            }
            return new Likelihood.Estimated(draws, proposal != null ? Likelihood.Proposal.parse(proposal)
                    : model.defaultProposal());
        }
        return null;
    }

    /** {@code --inner}: {@code N} or {@code auto[:V]} (default auto, σ² target 1). */
    Aisel.Inner innerChoice() {
        String s = inner == null ? "auto" : inner.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.equals("auto")) {
                return new Aisel.Inner.Auto(1);
            }
            if (s.startsWith("auto:")) {
                return new Aisel.Inner.Auto(Decimal.parse(s.substring(5)).orElseThrow(NumberFormatException::new));
            }
            int draws = Decimal.parseInt(s);
            if (draws < 1 || draws > Likelihood.MAX_DRAWS) {
                throw new UserException("--inner N must be between 1 and " + Likelihood.MAX_DRAWS + ", got " + draws);
            }
            return new Aisel.Inner.Fixed(draws);
        } catch (NumberFormatException e) {
            throw new UserException("--inner must be a number of draws N, auto or auto:V (V the target variance of "
                    + "log p̂), got " + inner);
        }
    }

    /** The checkpoints of --checkpoint, --checkpoint-every and --resume. */
    Checkpointing checkpointing() {
        Path checkpoint = get(SharedOptions.CHECKPOINT);
        Path resume = get(SharedOptions.RESUME);
        if (given(SharedOptions.CHECKPOINT_EVERY.name()) && checkpoint == null) {
            throw new UserException("--checkpoint-every needs --checkpoint FILE");
        }
        if (checkpoint == null && resume == null) {
            return Checkpointing.NONE;
        }
        if (replicatesRun > 1) {
            throw new UserException("--checkpoint and --resume save one run; drop --replicates");
        }
        problem.notResumable(pathOptions()).ifPresent(reason -> {
            throw new UserException("--checkpoint and --resume: " + reason);
        });
        if (checkpoint != null) {
            AtomicFiles.checkWritable(checkpoint);
            // rerunning the first command line would start over and replace, at its first save, the run F holds
            if (Files.isRegularFile(checkpoint) && sizeOf(checkpoint) > 0 && (resume == null
                    || !checkpoint.toAbsolutePath().normalize().equals(resume.toAbsolutePath().normalize()))) {
                throw new UserException("--checkpoint " + checkpoint + ": the file exists and may hold a run in progress; "
                        + "continue it with --resume " + checkpoint + " --checkpoint " + checkpoint
                        + ", or remove the file to start over");
            }
        }
        return new Checkpointing(checkpoint, get(SharedOptions.CHECKPOINT_EVERY), resume);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The chain count of the method's family: the one set, else the family's default ({@link Family#chains()}). */
    int chains() {
        return get(Family.of(method).chains());
    }

    /** The reverse chains of an annealing run: raise's are its chains, the work estimators' --reverse-chains. */
    int reverseChains() {
        int forward = chains();
        return method == Method.RAISE ? forward : getOr(AnnealingOptions.REVERSE_CHAINS, forward);
    }

    /** The tempered sampling prior as log r_k, or null for the uniform one. */
    double[] logPrior() {
        Path priorFile = get(TemperingOptions.PRIOR);
        double[] weights = priorFile != null ? ValueFiles.read(priorFile) : priorWeights;
        if (weights == null) {
            return null;
        }
        double[] log = new double[weights.length];
        for (int k = 0; k < weights.length; k++) {
            if (!(weights[k] > 0)) {
                throw new UserException(priorName() + ": prior weight " + (k + 1) + " is " + weights[k]
                        + "; weights must be positive");
            }
            log[k] = Math.log(weights[k]);
        }
        return log;
    }

    /** The prior's name in reports: its file, {@code given} or {@code uniform}. */
    String priorName() {
        Path priorFile = get(TemperingOptions.PRIOR);
        return priorFile != null ? priorFile.toString() : priorWeights != null ? "given" : "uniform";
    }

    /** Runs {@code work} on the caller's backend, or on one opened by name and closed after it. */
    <T> T withBackend(Function<ParticleBackend, T> work) {
        if (backend != null) {
            if (given("--threads")) {
                throw new UserException("--threads applies to a backend opened by name; the caller's backend has its own");
            }
            // a backend's buffers and scratch belong to one run at a time
            synchronized (backend) {
                return work.apply(backend);
            }
        }
        try (ParticleBackend opened = Backends.open(backendName, threads)) {
            return work.apply(opened);
        }
    }

    /** A schedule and the chain-transitions spent finding it (a VAROPT pilot's; 0 for the others). */
    record Planned(Schedule schedule, long pilotSweeps) {
    }

    /**
     * The schedule on {@code path}: {@code varopt[:...]} (Kiwaki's VAROPT) and {@code gms13[:...]} (Grosse et al.'s
     * binned schedule) run their pilots there, keyed by the seed.
     */
    Planned schedule(TemperedPath path) {
        if (planned != null) {
            return planned;
        }
        String schedule = get(AnnealingOptions.SCHEDULE);
        if (pilot(schedule, "varopt")) {
            Varopt.Plan plan = Varopt.plan(path, get(AnnealingOptions.STEPS), Varopt.Settings.parse(schedule), seed);
            return new Planned(plan.schedule(), plan.pilotTransitions());
        }
        if (pilot(schedule, "gms13")) {
            Gms13.Plan plan = Gms13.plan(path, get(AnnealingOptions.STEPS), Gms13.Settings.parse(schedule), seed);
            return new Planned(plan.schedule(), plan.pilotTransitions());
        }
        return new Planned(fixedSchedule(), 0);
    }

    private static boolean pilot(String schedule, String name) {
        return schedule.trim().toLowerCase(Locale.ROOT).startsWith(name);
    }

    /** Refuses the schedules that run a pilot, for runs that have no fixed path to plan them on. */
    void rejectVaropt() {
        String schedule = get(AnnealingOptions.SCHEDULE);
        if (pilot(schedule, "varopt") || pilot(schedule, "gms13")) {
            throw new UserException("--schedule " + schedule + " does not apply to --method " + method + " (its pilot "
                    + "needs the path, which depends on the inner draws N); use adaptive tempering or a fixed schedule");
        }
    }

    /** The schedule of --schedule and --steps, for schedules that need no pilot. */
    Schedule fixedSchedule() {
        String schedule = get(AnnealingOptions.SCHEDULE);
        int steps = get(AnnealingOptions.STEPS);
        if (schedule.equals("equal-divergence")) {
            return problem.equalDivergenceSchedule(steps).orElseThrow(() -> new UserException(
                    "--schedule equal-divergence applies to gauss-toy only"));
        }
        if (Schedule.definesOwnSteps(schedule)) {
            if (given(AnnealingOptions.STEPS.name())) {
                throw new UserException("--schedule " + schedule + " sets its own steps; drop --steps");
            }
            return Schedule.parse(schedule, 0);
        }
        return Schedule.parse(schedule, steps);
    }

    /** The tempering ladder of --ladder and --levels; a piecewise ladder sets its own levels. */
    Schedule ladder() {
        String ladder = get(TemperingOptions.LADDER);
        int levels = get(TemperingOptions.LEVELS);
        if (Schedule.definesOwnSteps(ladder)) {
            if (given(TemperingOptions.LEVELS.name())) {
                throw new UserException("--ladder " + ladder + " sets its own levels; drop --levels");
            }
            return Schedule.parse(ladder, 0);
        }
        if (levels < 2) {
            throw new UserException("--levels must be at least 2, got " + levels);
        }
        try {
            return Schedule.parse(ladder, levels - 1);
        } catch (UserException e) {
            // the ladder is a schedule of levels - 1 steps: say so in the option's terms
            throw new UserException("--levels " + levels + ": " + e.getMessage());
        }
    }
}
