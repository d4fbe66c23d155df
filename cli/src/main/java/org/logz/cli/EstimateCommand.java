package org.logz.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.Callable;

import org.logz.UserException;
import org.logz.estimate.Estimate;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.estimate.Warning;
import org.logz.estimate.aisel.Aisel;
import org.logz.io.AtomicFiles;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.schedule.Varopt;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code logz estimate}: runs one estimator on a model and reports log Z. The options of each method
 * family live here; {@link AnnealingRuns}, {@link WorkRuns}, {@link TemperedRuns} and
 * {@link SequentialRuns} run them and fill the report.
 */
@Command(name = "estimate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Estimate log Z of an RBM, the 2D Ising model, the Gaussian toy or the evidence of a GP classifier. "
                + "Without --model, runs on the embedded demo RBM and also prints its exact log Z.")
final class EstimateCommand implements Callable<Integer> {
    /** A method family: its methods and the options only it accepts. */
    enum Family {
        ANNEALING(Set.of(Method.AIS, Method.RAISE), Set.of("--steps", "--schedule", "--reverse-start", "--work",
                "--sweeps-per-step", "--start")),
        WORK(Set.of(Method.BAR, Method.CUMULANT, Method.HISTOGRAM), Set.of("--steps", "--schedule", "--reverse-start",
                "--work", "--sweeps-per-step", "--reverse-chains", "--reverse-work", "--bootstraps", "--start")),
        TEMPERED(Set.of(Method.RTS, Method.TI, Method.TI_RB, Method.MBAR), Set.of("--levels", "--ladder", "--sweeps",
                "--round-sweeps", "--rounds", "--batches", "--mbar-samples", "--prior", "--sweeps-per-step", "--start")),
        SEQUENTIAL(Set.of(Method.RM, Method.ARM, Method.ARM_ANTICIPATE, Method.ARM_RESEED), Set.of("--particles",
                "--gibbs-steps", "--gamma-threshold", "--ess-threshold", "--max-generate", "--order", "--resampling",
                "--reseed-sweeps")),
        SMC(Set.of(Method.SMC, Method.POWER_POSTERIOR, Method.POWER_POSTERIOR_CORRECTED), Set.of("--particles",
                "--schedule", "--steps", "--ess-target", "--max-steps", "--resample-threshold", "--resampling",
                "--sweeps-per-step", "--start")),
        AISEL(Set.of(Method.AISEL), Set.of("--particles", "--schedule", "--steps", "--ess-target", "--max-steps",
                "--resample-threshold", "--resampling", "--sweeps-per-step")),
        APPROXIMATION(Set.of(Method.EP), Set.of());

        final Set<Method> methods;
        final Set<String> options;

        Family(Set<Method> methods, Set<String> options) {
            this.methods = methods;
            this.options = options;
        }

        static Family of(Method method) {
            for (Family f : values()) {
                if (f.methods.contains(method)) {
                    return f;
                }
            }
            throw new IllegalStateException("no family runs " + method);
        }

        /** The method {@code --method} names, if some family runs it. */
        static Method method(String name) {
            for (Family f : values()) {
                for (Method m : f.methods) {
                    if (m.toString().equals(name)) {
                        return m;
                    }
                }
            }
            throw new UserException("unknown --method '" + name + "'; use ais, raise, bar, cumulant, histogram, "
                    + "rts, ti, ti-rb, mbar, rm, arm, arm-anticipate, arm-reseed, smc, power-posterior, "
                    + "power-posterior-corrected, aisel or ep");
        }
    }

    /** Options of a method's family that the method itself does not read. */
    private static final Map<Method, Set<String>> NOT_FOR = Map.of(
            Method.AIS, Set.of("--reverse-start"),
            Method.RM, Set.of("--gamma-threshold", "--max-generate", "--reseed-sweeps"),
            Method.ARM, Set.of("--ess-threshold", "--reseed-sweeps"),
            Method.ARM_ANTICIPATE, Set.of("--ess-threshold", "--reseed-sweeps"),
            Method.ARM_RESEED, Set.of("--ess-threshold"));

    /** Replicates run one after another and each result is kept with its trace: beyond this, use fewer, longer runs. */
    static final int MAX_REPLICATES = 10_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--model", paramLabel = "MODEL",
            description = "RBM .npz file (W, a, b, optional a0; or scikit-learn names), ising:L=N, gauss-toy[:mu0=..,"
                    + "sigma0=..,tau0=..,mu1=..,sigma1=..,tau1=..,power=..], or gpc:digits35|mnist35|FILE.npz (GP "
                    + "classification: y and X or K), glmm:sim20|sim8|FILE.npz (logistic random-intercept GLMM: y, X, group) or "
                    + "sv:sim200|FILE.npz (stochastic volatility: y). Default: the demo RBM.")
    String model;

    @Option(names = "--method", paramLabel = "M", defaultValue = "ais",
            description = "ais, raise (reverse AIS); bar, cumulant, histogram (forward and reverse annealing); rts, ti, "
                    + "ti-rb, mbar (tempered sampling); rm, arm, arm-anticipate, arm-reseed (sequential: RBMs, and GP "
                    + "classification but arm-reseed); ep (GP classification); smc, power-posterior, power-posterior-corrected (the "
                    + "SMC sampler); aisel (glmm/sv: SMC over parameters with an estimated likelihood). The annealing methods run on every model, "
                    + "tempered sampling on all but the Gaussian toy. "
                    + "Default: ${DEFAULT-VALUE}.")
    String methodName;

    /** The method of {@code --method}, set when the command runs. */
    Method method;

    @Option(names = "--log-ell", paramLabel = "L",
            description = "GP classification: log length scale of the squared-exponential covariance. Default: the "
                    + "file's log_ell, else 4.85 (the ARM paper's Figure 2).")
    Double logEll;

    @Option(names = "--log-sigma", paramLabel = "S",
            description = "GP classification: log signal standard deviation. Default: the file's log_sigma, else 5.1.")
    Double logSigma;

    @Option(names = "--start", paramLabel = "S",
            description = "GP classification, annealing and tempered methods: where the tempered likelihood starts, "
                    + "prior (the GP prior N(0, K)) or ep (EP's Gaussian approximation q, the ARM paper's eq. 11). "
                    + "Default: ep.")
    String start;

    @Option(names = "--inner", paramLabel = "N|auto[:V]",
            description = "glmm/sv: inner draws N per likelihood estimate; aisel also auto[:V] (N chosen so that the "
                    + "variance of log p̂ at a central θ is V, default 1; Tran et al. §3.4). Default: aisel auto, other "
                    + "methods with an estimated likelihood 64.")
    String inner;

    @Option(names = "--proposal", paramLabel = "P",
            description = "glmm/sv: the inner estimator, laplace or prior (GLMM importance sampling; default laplace) or "
                    + "bootstrap (the SV particle filter, its default).")
    String proposal;

    @Option(names = "--likelihood", paramLabel = "L",
            description = "glmm/sv, methods other than aisel: exact (the GLMM by Gauss-Hermite quadrature; the default "
                    + "where the model has one) or estimated (from --inner draws).")
    String likelihoodChoice;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Philox key. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--data", paramLabel = "NAME|FILE",
            description = "RBMs: data set (mnist, digits, or an .npz with X) for the base rate, and for rm/arm the unit "
                    + "order and reseeding.")
    String data;

    @Option(names = "--replicates", paramLabel = "B", defaultValue = "1",
            description = "Independent runs (different Philox keys); reports log of the mean Ẑ with a standard error. Default: ${DEFAULT-VALUE}.")
    int replicates;

    @Option(names = "--compare-exact", description = "RBMs: also compute the exact log Z by enumeration (always on for "
            + "the demo; Ising and Gaussian toy always report theirs).")
    boolean compareExact;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Also plot the run: ESS along β (ais, raise), work distributions (bar, cumulant, histogram), "
                    + "log Z_k and occupancies along β (rts, ti, ti-rb, mbar), or R_n and γ along n (rm, arm).")
    Path plot;

    @Option(names = "--chains", paramLabel = "M",
            description = "Independent chains: forward chains of the annealing methods (default 1000), parallel chains of "
                    + "tempered sampling (default 100).")
    Integer chains;

    @Option(names = "--base-rate", paramLabel = "B", defaultValue = "auto",
            description = "RBMs, β = 0 distribution: auto (data if --data, else the file's a0, else model), data, file, "
                    + "model (visible marginals of a short Gibbs run started at the model's hidden modes), uniform, "
                    + "visible-bias. Default: ${DEFAULT-VALUE}.")
    String baseRate;

    @Option(names = "--sweeps-per-step", paramLabel = "N", defaultValue = "1",
            description = "Markov transitions per annealing or tempering step, every model (Habeck's equilibration "
                    + "steps: RBM Gibbs sweeps, Ising heat-bath sweeps of L² sites, Gaussian toy kernel moves). "
                    + "Default: ${DEFAULT-VALUE}.")
    int sweepsPerStep;

    @Option(names = "--steps", paramLabel = "K", defaultValue = "1000", description = "Annealing steps. Default: ${DEFAULT-VALUE}.")
    int steps;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "linear",
            description = "Annealing schedule: linear, geometric[:βmin], sigmoid[:δ], piecewise:β/steps,..., salakhutdinov, "
                    + "varopt[:pilot=K0,chains=C,max-step=d] (Kiwaki's, from a pilot run), or (gauss-toy) "
                    + "equal-divergence; smc also adaptive. Default: ${DEFAULT-VALUE} (smc: adaptive).")
    String schedule;

    @Option(names = "--reverse-start", paramLabel = "START",
            description = "Reverse runs: exact (RBMs with a small layer, gauss-toy), gibbs:B (B steps of --sweeps-per-step "
                    + "transitions at β=1 from the base), ground or ground:B (Ising). Default: exact where possible, ground for "
                    + "Ising, gibbs:100 for GP classification, else gibbs:1000.")
    String reverseStart;

    @Option(names = "--work", paramLabel = "FILE",
            description = "Write each chain's work value W = -log w, one per line: forward work (ais, bar, cumulant, "
                    + "histogram) or reverse work (raise).")
    Path workFile;

    @Option(names = "--reverse-chains", paramLabel = "M", description = "bar, cumulant, histogram: reverse chains. Default: --chains.")
    Integer reverseChains;

    @Option(names = "--reverse-work", paramLabel = "FILE", description = "bar, cumulant, histogram: write the reverse work values.")
    Path reverseWorkFile;

    @Option(names = "--bootstraps", paramLabel = "B", defaultValue = "200",
            description = "histogram: bootstrap resamples behind its standard error. Default: ${DEFAULT-VALUE}.")
    int bootstraps;

    @Option(names = "--levels", paramLabel = "K", defaultValue = "100",
            description = "Tempered sampling: inverse temperatures in the ladder. Default: ${DEFAULT-VALUE}.")
    int levels;

    @Option(names = "--ladder", paramLabel = "S", defaultValue = "linear",
            description = "Tempered sampling: spacing of the ladder (linear, geometric[:βmin], sigmoid[:δ]). Default: ${DEFAULT-VALUE}.")
    String ladder;

    @Option(names = "--sweeps", paramLabel = "N", defaultValue = "2000",
            description = "Tempered sampling: iterations of the final run (one step of --sweeps-per-step transitions and one temperature move each). "
                    + "Default: ${DEFAULT-VALUE}.")
    int sweeps;

    @Option(names = "--round-sweeps", paramLabel = "N", defaultValue = "50",
            description = "Tempered sampling: iterations of the first initial round (burn-in that tunes Ẑ, RTS §2.4); each "
                    + "later round is twice as long. Default: ${DEFAULT-VALUE}.")
    int roundSweeps;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "6",
            description = "Tempered sampling: most initial rounds (at most 16); they stop once max|r_k - ĉ_k| < 0.1/K. "
                    + "Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--batches", paramLabel = "B", defaultValue = "10",
            description = "Tempered sampling: groups of chains (at most --chains) behind the batch-means standard "
                    + "errors. Default: ${DEFAULT-VALUE}.")
    int batches;

    @Option(names = "--mbar-samples", paramLabel = "N", defaultValue = "10000",
            description = "Tempered sampling: chain states kept (thinned) for MBAR; 0 skips MBAR. Default: ${DEFAULT-VALUE}.")
    int mbarSamples;

    @Option(names = "--prior", paramLabel = "FILE",
            description = "Tempered sampling: prior weights r_k over the levels, one per line (normalized). Default: uniform.")
    Path prior;

    @Option(names = "--particles", paramLabel = "R", defaultValue = "1000", description = "rm/arm: base number of particles; smc: particles M. Default: ${DEFAULT-VALUE}.")
    int particles;

    @Option(names = "--gibbs-steps", paramLabel = "t", defaultValue = "10", description = "rm/arm: Gibbs sweeps per move step. Default: ${DEFAULT-VALUE} (1 for GP classification).")
    int gibbsSteps;

    @Option(names = "--gamma-threshold", paramLabel = "g", defaultValue = "0.7", description = "arm: generate while ESS/R_n < g. Default: ${DEFAULT-VALUE} (0.9 for GP classification).")
    double gammaThreshold;

    @Option(names = "--ess-threshold", paramLabel = "e", defaultValue = "0.7", description = "rm: resample when ESS < e·R. Default: ${DEFAULT-VALUE} (0.9 for GP classification).")
    double essThreshold;

    @Option(names = "--max-generate", paramLabel = "i", defaultValue = "3", description = "arm: most batches generated per iteration. Default: ${DEFAULT-VALUE} (50 for GP classification).")
    int maxGenerate;

    @Option(names = "--order", paramLabel = "O",
            description = "rm/arm unit order: natural, variance (needs --data) or random:SEED. Default: variance with --data, else natural.")
    String order;

    @Option(names = "--resampling", paramLabel = "S", defaultValue = "residual",
            description = "rm/arm/smc: residual, systematic or multinomial. Default: ${DEFAULT-VALUE} (smc: multinomial, "
                    + "which gives a single-run standard error).")
    String resampling;

    @Option(names = "--reseed-sweeps", paramLabel = "G", defaultValue = "1500", description = "arm-reseed: Gibbs sweeps of each new chain. Default: ${DEFAULT-VALUE}.")
    int reseedSweeps;

    @Option(names = "--ess-target", paramLabel = "ρ", defaultValue = "0.999",
            description = "smc, aisel, adaptive tempering: the next β keeps the conditional ESS of the incremental "
                    + "weights at ρ·M (Zhou, Johansen & Aston 2016). Default: ${DEFAULT-VALUE} (the only target without a "
                    + "refused run in `logz bench schedules`; see the README).")
    double essTarget;

    @Option(names = "--max-steps", paramLabel = "K", defaultValue = "10000",
            description = "smc, adaptive tempering: the most steps before the run stops with an error. Default: ${DEFAULT-VALUE}.")
    int maxSteps;

    @Option(names = "--resample-threshold", paramLabel = "α", defaultValue = "0.5",
            description = "smc: resample when the ESS falls below α·M. Default: ${DEFAULT-VALUE}.")
    double resampleThreshold;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    WarningReport warningReport;

    /** The likelihood of a latent-variable model's path (set before the run; null for the model's default). */
    private Likelihood latentLikelihood;

    /** The exact log Z when the problem has one (set before the run, for plots). */
    OptionalDouble exactLogZ = OptionalDouble.empty();

    /**
     * What a family's runner hands back: the runs, one line about them for the text report, the path
     * they ran on (null for the sequential methods), how the headline's standard error is computed,
     * and the family's part of the report.
     */
    record Runs(List<? extends Estimate> runs, String summary, AnnealingRuns.PathDescription path, String stderrMethod,
                EstimateReport.Details details, List<Warning> modelWarnings) {
        Runs(List<? extends Estimate> runs, String summary, AnnealingRuns.PathDescription path, String stderrMethod,
             EstimateReport.Details details) {
            this(runs, summary, path, stderrMethod, details, List.of());
        }
    }

    @Override
    public Integer call() {
        method = Family.method(methodName);
        Family family = Family.of(method);
        rejectForeignOptions(family);
        if (replicates < 1 || replicates > MAX_REPLICATES) {
            throw new UserException("--replicates must be between 1 and " + MAX_REPLICATES + ", got "
                    + replicates + " (each replicate is a whole run, kept with its trace)");
        }
        checkOutputs();
        Problem problem = Problem.parse(model, optional(logEll), optional(logSigma));
        if (!(problem instanceof Problem.RbmProblem)) {
            for (String option : new String[] {"--data", "--base-rate", "--compare-exact"}) {
                if (matched(option)) {
                    throw new UserException(option + " applies to RBMs only");
                }
            }
        }
        if (!(problem instanceof Problem.GpcProblem) && matched("--start")) {
            throw new UserException("--start applies to GP classification (--model gpc:...) only");
        }
        checkLatentOptions(problem, family);
        // aisel reads --inner (N or auto) and --proposal itself (AiselRuns)
        latentLikelihood = problem instanceof Problem.LatentProblem latent && method != Method.AISEL
                ? likelihood(latent.model()) : null;
        Double exact = problem.exactLogZ(compareExact).orElse(null);
        exactLogZ = exact == null ? OptionalDouble.empty() : OptionalDouble.of(exact);
        Runs result = switch (family) {
            case ANNEALING -> AnnealingRuns.run(this, problem);
            case WORK -> WorkRuns.run(this, problem);
            case TEMPERED -> TemperedRuns.run(this, problem);
            case SEQUENTIAL -> SequentialRuns.run(this, problem);
            case SMC -> SmcRuns.run(this, problem);
            case AISEL -> AiselRuns.run(this, (Problem.LatentProblem) problem);
            case APPROXIMATION -> EpRuns.run(this, problem);
        };
        EstimateReport report = report(problem, result, exact);
        print(report, result.summary());
        return warningReport.finish(spec.commandLine().getErr(), report.warnings());
    }

    /** The report of the runs: the first run's headline, or with replicates their combination. */
    private EstimateReport report(Problem problem, Runs result, Double exact) {
        List<? extends Estimate> runs = result.runs();
        Estimate first = runs.get(0);
        double logZ = first.logZ();
        Double stderr = EstimateReport.orNull(first.standardError());
        String stderrMethod = result.stderrMethod();
        List<Warning> warnings = first.warnings();
        Double meanLogZ = null;
        Double sdLogZ = null;
        List<Json.Replicate> each = null;
        if (runs.size() > 1) {
            Replicates<? extends Estimate> combined = Replicates.of(runs);
            warnings = combined.warnings();
            logZ = combined.logZ();
            stderr = combined.stdErr();
            stderrMethod = "replicates";
            meanLogZ = combined.meanLogZ();
            sdLogZ = combined.sdLogZ();
            each = new ArrayList<>();
            for (Estimate e : runs) {
                each.add(new Json.Replicate(e.seed(), e.logZ(), e.standardError(), e.seconds()));
            }
        }
        warnings = new ArrayList<>(warnings);
        warnings.addAll(result.modelWarnings());
        // without a standard error only a miss beyond 0.1 is flagged: the run's noise is unknown
        if (exact != null && Math.abs(logZ - exact) > (stderr == null ? 0.1 : Math.max(4 * stderr, 0.05))) {
            warnings.add(Warning.exactDisagrees(logZ, stderr == null ? Double.NaN : stderr, exact));
        }
        double noise = stderr == null ? 0 : 3 * stderr;
        Optional<Double> bound = problem.logZUpperBound();
        if (bound.isPresent() && logZ > bound.get() + noise + 1e-9 * (1 + Math.abs(bound.get()))) {
            warnings.add(Warning.aboveBound(method, logZ, bound.get(), problem.upperBoundReason()));
        }
        AnnealingRuns.PathDescription path = result.path();
        return new EstimateReport(method, problem.describe(), path == null ? null : path.path(),
                path == null ? null : path.baseRate(), path == null ? null : path.base(), logZ, stderr, stderrMethod, result.details(), first.backend(), seed,
                meanLogZ, sdLogZ, each, exact, exact == null ? null : logZ - exact,
                runs.stream().mapToDouble(Estimate::seconds).sum(), List.copyOf(warnings));
    }

    /** Every output writable, none of them an input of the run or another output. */
    private void checkOutputs() {
        List<AtomicFiles.Named> outputs = List.of(new AtomicFiles.Named("--work", workFile),
                new AtomicFiles.Named("--reverse-work", reverseWorkFile), new AtomicFiles.Named("--plot", plot));
        List<AtomicFiles.Named> inputs = List.of(new AtomicFiles.Named("--model", existingFile(model)),
                new AtomicFiles.Named("--data", existingFile(data)), new AtomicFiles.Named("--prior", prior));
        AtomicFiles.requireDistinct(outputs, inputs);
        for (AtomicFiles.Named output : outputs) {
            if (output.path() != null) {
                AtomicFiles.checkWritable(output.path());
            }
        }
    }

    /** The path an option names when it is an existing file (model and data options also take names). */
    static Path existingFile(String spec) {
        if (spec == null || spec.isBlank()) {
            return null;
        }
        try {
            Path p = Path.of(spec);
            return Files.isRegularFile(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    boolean matched(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    private void rejectForeignOptions(Family family) {
        for (Family other : Family.values()) {
            for (String option : new java.util.TreeSet<>(other.options)) {
                if (!family.options.contains(option) && matched(option)) {
                    throw new UserException(option + " does not apply to --method " + method);
                }
            }
        }
        if (family == Family.APPROXIMATION) {
            for (String option : new String[] {"--chains", "--backend", "--threads", "--plot"}) {
                if (matched(option)) {
                    throw new UserException(option + " does not apply to --method " + method
                            + " (a deterministic approximation on the host)");
                }
            }
        }
        if ((family == Family.SEQUENTIAL || family == Family.SMC || family == Family.AISEL) && matched("--chains")) {
            throw new UserException("--chains does not apply to --method " + method
                    + (family != Family.SEQUENTIAL ? "; the SMC sampler's particles are --particles" : ""));
        }
        for (String option : new java.util.TreeSet<>(NOT_FOR.getOrDefault(method, Set.of()))) {
            if (matched(option)) {
                throw new UserException(option + " does not apply to --method " + method);
            }
        }
    }

    Problem.PathOptions pathOptions() {
        return new Problem.PathOptions(baseRate, data, sweepsPerStep, seed, start, latentLikelihood);
    }

    /** --inner, --proposal and --likelihood belong to latent-variable models, and those to the methods that anneal θ. */
    private void checkLatentOptions(Problem problem, Family family) {
        boolean latent = problem instanceof Problem.LatentProblem;
        for (String option : new String[] {"--inner", "--proposal", "--likelihood"}) {
            if (!latent && matched(option)) {
                throw new UserException(option + " applies to latent-variable models (--model glmm:... or sv:...) only");
            }
        }
        if (method == Method.AISEL && !latent) {
            throw new UserException("--method aisel needs a latent-variable model: --model glmm:SET|FILE or sv:SET|FILE");
        }
        if (latent && (family == Family.TEMPERED || family == Family.SEQUENTIAL || family == Family.APPROXIMATION)) {
            throw new UserException("--method " + method + " does not run on latent-variable models; use aisel, smc, ais, "
                    + "raise, bar, cumulant or histogram");
        }
        if (method == Method.AISEL && matched("--likelihood")) {
            throw new UserException("aisel estimates the likelihood; for the exact one use --method smc --likelihood exact");
        }
    }

    /** The likelihood of --likelihood, --inner and --proposal for methods other than aisel; null for the model's default. */
    private Likelihood likelihood(LatentModel model) {
        String choice = likelihoodChoice == null ? null : likelihoodChoice.trim().toLowerCase(Locale.ROOT);
        if (choice != null && !choice.equals("exact") && !choice.equals("estimated")) {
            throw new UserException("--likelihood must be exact or estimated, got " + likelihoodChoice);
        }
        if ("exact".equals(choice)) {
            if (matched("--inner") || matched("--proposal")) {
                throw new UserException("--inner and --proposal set an estimated likelihood; drop them or --likelihood exact");
            }
            return new Likelihood.Exact();
        }
        if ("estimated".equals(choice) || matched("--inner") || matched("--proposal")) {
            int draws = Problem.LatentProblem.DEFAULT_DRAWS;
            if (matched("--inner")) {
                Aisel.Inner parsed = AiselRuns.inner(inner);
                if (!(parsed instanceof Aisel.Inner.Fixed fixed)) {
                    throw new UserException("--inner auto applies to --method aisel; give --inner N");
                }
                draws = fixed.draws();
            }
            return new Likelihood.Estimated(draws, proposal != null ? proposalOption()
                    : Likelihood.Proposal.defaultFor(model));
        }
        return null;
    }

    /** The inner estimator of --proposal, or null for the model's default. */
    Likelihood.Proposal proposalOption() {
        return proposal == null ? null : Likelihood.Proposal.parse(proposal);
    }

    int chains(int fallback) {
        return chains == null ? fallback : chains;
    }

    /** A schedule and the chain-transitions spent finding it (a VAROPT pilot's; 0 for the others). */
    record Planned(Schedule schedule, long pilotSweeps) {
    }

    /**
     * The annealing schedule of --schedule and --steps on {@code path}: {@code varopt[:...]} runs its pilot there
     * (Kiwaki's VAROPT, {@link Varopt}), keyed by the seed.
     */
    Planned schedule(Problem problem, TemperedPath path) {
        if (schedule.trim().toLowerCase(java.util.Locale.ROOT).startsWith("varopt")) {
            Varopt.Plan plan = Varopt.plan(path, steps, Varopt.Settings.parse(schedule), seed);
            return new Planned(plan.schedule(), plan.pilotTransitions());
        }
        return new Planned(schedule(problem), 0);
    }

    /** Refuses {@code --schedule varopt}, for runs that have no fixed path to plan it on. */
    void rejectVaropt() {
        if (schedule.trim().toLowerCase(java.util.Locale.ROOT).startsWith("varopt")) {
            throw new UserException("--schedule varopt does not apply to --method " + method + " (its pilot needs the "
                    + "path, which depends on the inner draws N); use adaptive tempering or a fixed schedule");
        }
    }

    /** The annealing schedule of --schedule and --steps, for schedules that need no pilot. */
    Schedule schedule(Problem problem) {
        if (schedule.equals("equal-divergence")) {
            if (!(problem instanceof Problem.ToyProblem toy)) {
                throw new UserException("--schedule equal-divergence applies to gauss-toy only");
            }
            return toy.model().equalDivergenceSchedule(steps);
        }
        if (Schedule.definesOwnSteps(schedule)) {
            if (matched("--steps")) {
                throw new UserException("--schedule " + schedule + " sets its own steps; drop --steps");
            }
            return Schedule.parse(schedule, 0);
        }
        return Schedule.parse(schedule, steps);
    }

    static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** The tempering ladder of --ladder and --levels; a piecewise ladder sets its own levels. */
    Schedule ladder() {
        if (Schedule.definesOwnSteps(ladder)) {
            if (matched("--levels")) {
                throw new UserException("--ladder " + ladder + " sets its own levels; drop --levels");
            }
            return Schedule.parse(ladder, 0);
        }
        if (levels < 2) {
            throw new UserException("--levels must be at least 2, got " + levels);
        }
        return Schedule.parse(ladder, levels - 1);
    }

    String replicateLabel(int b) {
        return replicates > 1 ? " " + (b + 1) + "/" + replicates : "";
    }

    private void print(EstimateReport r, String summary) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(out, r);
            return;
        }
        out.printf(Locale.ROOT, "method   %s on %s%n", r.method(), r.backend());
        Problem.Description problem = r.problem();
        StringBuilder model = new StringBuilder(problem.model());
        if (problem.visible() != null) {
            model.append(", ").append(problem.visible()).append('×').append(problem.hidden());
        }
        if (problem.cases() != null) {
            model.append(", ").append(problem.cases()).append(" cases");
        }
        if (r.baseRate() != null) {
            model.append(", base rate ").append(r.baseRate());
        } else if (r.base() != null) {
            model.append(", start ").append(r.base());
        } else if (r.details() instanceof EstimateReport.Sequential s) {
            model.append(", order ").append(s.order());
        }
        out.printf(Locale.ROOT, "model    %s%n", model);
        out.printf(Locale.ROOT, "log Z    %.4f%s%s%n", r.logZ(),
                r.stderr() == null ? " (no standard error: " + r.stderrMethod().replaceFirst("^none(: | from )", "") + ")"
                        : String.format(Locale.ROOT, " ± %.4f", r.stderr()),
                r.replicates() != null ? " (spread of " + replicates + " replicates)" : "");
        if (r.exactLogZ() != null) {
            out.printf(Locale.ROOT, "exact    %.4f (error %+.4f)%n", r.exactLogZ(), r.error());
        }
        out.printf(Locale.ROOT, "run      %s, seed %d, %.2f s%n", summary, seed, r.seconds());
        out.flush();
    }
}
