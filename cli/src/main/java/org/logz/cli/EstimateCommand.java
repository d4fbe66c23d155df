package org.logz.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;

import org.logz.api.Estimation;
import org.logz.api.Outcome;
import org.logz.backend.Backends;
import org.logz.base.UserException;
import org.logz.estimate.Estimate;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.estimate.Warning;
import org.logz.io.AtomicFiles;
import org.logz.options.AnnealingOptions;
import org.logz.options.Family;
import org.logz.options.FamilyOption;
import org.logz.options.SharedOptions;
import org.logz.options.TemperingOptions;
import org.logz.problem.ModelFamilies;
import org.logz.problem.Problem;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code logz estimate}: runs one estimator on a model and reports log Z. The options every run reads live here, the
 * method families' in their tables ({@link FamilyOptions}); {@link AnnealingReport}, {@link WorkReport}, {@link TemperedReport}
 * and the other reports read the run's settings and results.
 */
@Command(name = "estimate", mixinStandardHelpOptions = true, sortOptions = false, modelTransformer = FamilyOptions.class,
        description = "Estimate log Z of a model: the partition function of an RBM or an Ising model, the evidence of a "
                + "classifier or a latent-variable model, ... (--model). Without --model, runs on the embedded demo RBM and also prints its exact log Z.")
public final class EstimateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The models are listed from the registered families ({@link ModelHelp#estimateModels()}). */
    @Option(names = "--model", paramLabel = "MODEL")
    String model;

    @Option(names = "--method", paramLabel = "M", defaultValue = "ais",
            description = "ais, raise (reverse AIS); bar, cumulant, histogram, histogram-gibbs (forward and reverse "
                    + "annealing); rts, ts, ti, ti-riemann, ti-friel, ti-rb, mbar (tempered sampling); pt (parallel tempering, read by BAR between neighbouring levels, MBAR and TI); rm, arm, arm-anticipate, arm-reseed (sequential: RBMs, and GP "
                    + "classification but arm-reseed); ep, ep-corrected (GP classification); smc, power-posterior, power-posterior-corrected (the "
                    + "SMC sampler); aisel (glmm/sv: SMC over parameters with an estimated likelihood). The annealing methods run on every model, "
                    + "tempered sampling and pt on all but the Gaussian toy. "
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
            description = "RBMs: data set (mnist, digits, or an .npz with X) for the base rate, the start of reverse "
                    + "chains (--reverse-start data), and for rm/arm the unit order and reseeding.")
    String data;

    @Option(names = "--replicates", paramLabel = "B", defaultValue = "1",
            description = "Independent runs (different Philox keys); reports log of the mean Ẑ with a standard error. Default: ${DEFAULT-VALUE}.")
    int replicates;

    @Option(names = "--compare-exact", description = "RBMs: also compute the exact log Z by enumeration (always on for "
            + "the demo; Ising and Gaussian toy always report theirs); Potts: the transfer matrix beyond 1e8 operations.")
    boolean compareExact;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Also plot the run: ESS along β (ais, raise; on gauss-toy also the chains' marginal against "
                    + "p_β), work distributions and the two directions' mean energies along β (bar, cumulant, histogram; "
                    + "histogram-gibbs also its posterior of log Z), log Z_k and occupancies along β (rts, ts, ti, "
                    + "ti-riemann, ti-friel, ti-rb, mbar), swap rates and mean d log f/dβ along β (pt), or R_n, Theorem 1's "
                    + "R_n^opt and γ along n (rm, arm).")
    Path plot;

    @Option(names = "--base-rate", paramLabel = "B", defaultValue = "auto",
            description = "RBMs, β = 0 distribution: auto (data if --data, else the file's a0, else model), data, file, "
                    + "model (visible marginals of a short Gibbs run started at the model's hidden modes), uniform, "
                    + "visible-bias. Default: ${DEFAULT-VALUE}.")
    String baseRate;

    @Option(names = "--spark", paramLabel = "MASTER",
            description = "Run as Apache Spark tasks on MASTER (local[4], spark://host:7077, ...): the replicates, or where "
                    + "there are fewer replicates than tasks and the method allows (ais, raise, bar, cumulant, histogram, but "
                    + "not from forward end states; rts, ti, ti-rb, mbar in stages, one per initial round) each run's chains "
                    + "split into parts. Each task runs its share on the best backend where it runs "
                    + "(cuda if present, else cpu) unless --backend names one, and the driver combines them. Same seed "
                    + "and backend, same estimate as one process (on cpu to the bit). Needs the logz-spark module "
                    + "(README, 'Scale out with Spark').")
    String sparkMaster;

    @Option(names = "--partitions", paramLabel = "P",
            description = "--spark: tasks to run: the replicates split into at most P ranges, or each run's chains into "
                    + "parts (in blocks of 64 chains, 64 x --batches for tempered sampling) so that there are at least P. Default: the cluster's default "
                    + "parallelism.")
    Integer partitions;

    @Option(names = "--tolerance", paramLabel = "T",
            description = "Answer to this accuracy in nats: two estimators chosen for the model (pt and bar; smc and bar "
                    + "where chains cannot sit at their own temperatures) double their budgets until both standard errors "
                    + "are below T/2 and they agree within T with no warning, and their weighted mean is printed with the "
                    + "evidence. Replaces --method and its options; shares --model, --data, --base-rate, --start, "
                    + "--sweeps-per-step, --backend, --threads and --seed.")
    Double tolerance;

    @Option(names = "--time-limit", paramLabel = "D",
            description = "--tolerance: start no round that would end after D (seconds, or with s, m or h; the first "
                    + "round always runs); then print what the runs gave with a warning (exit 3 under --strict). Default: 1h.")
    String timeLimit;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    WarningReport warningReport;

    /** The model (set when the command runs). */
    Problem problem;

    /** Where a --spark run ran (set after it). */
    private Distributor.Run distributed;

    /** The exact log Z when the problem has one (set before the run, for plots). */
    OptionalDouble exactLogZ = OptionalDouble.empty();

    /**
     * What a family's runner hands back: the runs, one line about them for the text report, the path
     * they ran on (null for the sequential methods), how the headline's standard error is computed,
     * and the family's part of the report.
     */
    record Runs(List<? extends Estimate> runs, String summary, Outcome.PathDescription path, String stderrMethod,
                EstimateReport.Details details, List<Warning> modelWarnings) {
    }

    /** The outcome's runs as the family's result type. */
    static <E extends Estimate> List<E> runs(Outcome o, Class<E> type) {
        return o.runs().stream().map(type::cast).toList();
    }

    @Override
    public Integer call() {
        try (Progress.Heartbeat beat = Progress.heartbeat("estimate", HEARTBEAT)) {
            return matched("--tolerance") || matched("--time-limit") ? ConsensusReport.run(this) : estimate();
        }
    }

    /** How long the command may be silent on stderr before it says it is still working. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(15);

    private Integer estimate() {
        method = Family.method(methodName);
        Family family = Family.of(method);
        for (String option : new String[] {"--work", "--reverse-work"}) {
            if (matched(option) && !family.reads(option)) {
                throw new UserException(option + " does not apply to --method " + method);
            }
        }
        if (family == Family.APPROXIMATION && matched("--plot")) {
            throw new UserException("--plot does not apply to --method " + method
                    + " (a deterministic approximation on the host)");
        }
        Estimation.checkReplicates(replicates);
        checkSpark(family);
        checkOutputs();
        problem = parseProblem();
        if (!problem.family().options().contains("--compare-exact") && matched("--compare-exact")) {
            throw new UserException("--compare-exact applies to " + ModelFamilies.readers("--compare-exact") + " only");
        }
        if (sparkMaster != null && family == Family.SEQUENTIAL && problem.classifier().isPresent()) {
            // the path's precision drift, refactorizations and condition estimate accumulate in one process
            throw new UserException("--spark does not run rm/arm on a GP classifier: its report reads the precision drift "
                    + "and conditioning that the replicates accumulate in one process; run without --spark");
        }
        Estimation estimation = estimation(problem);
        if (sparkMaster != null && !matched("--backend")) {
            estimation.backend(Backends.best());
        }
        estimation.check();
        Double exact = exactLogZ(problem);
        exactLogZ = exact == null ? OptionalDouble.empty() : OptionalDouble.of(exact);
        Outcome outcome;
        if (sparkMaster == null) {
            outcome = estimation.outcome(replicates, b -> Progress.onTerminal(method + replicateLabel(b)));
        } else {
            if (replicates == 1 && !estimation.splitsChains()) {
                spec.commandLine().getErr().println("logz: note: --spark runs whole replicates of --method " + method
                        + " on " + problem.describe().model() + " as tasks (its chains interact), and this run has one "
                        + "(one task); --replicates B spreads B runs");
            }
            // the driver makes the plan (a schedule's pilot included) once; the tasks run the replicates or chain parts
            Outcome plan = estimation.outcome(0, 0, b -> null);
            distributed = Distributor.installed().run(sparkMaster, partitions, TaskReplicates.Job.of(
                    spec.root().commandLine().getParseResult().originalArgs(), replicates, plan));
            if (partitions != null && distributed.tasks() < partitions) {
                spec.commandLine().getErr().println("logz: note: --partitions " + partitions + ": the job has "
                        + distributed.job().units() + (distributed.job().parts().isEmpty() ? " replicate(s)"
                        : " chain parts (of 64 chains or more)") + ", so " + distributed.tasks() + " task(s) ran");
            }
            outcome = TaskReplicates.outcome(estimation, plan, distributed.job(), distributed.records());
        }
        outcome.runs().forEach(estimation::requireWithinBound);
        Runs result = switch (family) {
            case ANNEALING -> AnnealingReport.report(this, outcome);
            case WORK -> WorkReport.report(this, outcome);
            case TEMPERED -> TemperedReport.report(this, outcome);
            case PARALLEL_TEMPERING -> PtReport.report(this, outcome);
            case SEQUENTIAL -> SequentialReport.report(this, outcome);
            case SMC -> SmcReport.report(this, outcome);
            case AISEL -> AiselReport.report(this, outcome);
            case APPROXIMATION -> EpReport.report(outcome);
        };
        EstimateReport report = report(estimation, result, exact);
        print(report, result.summary());
        return warningReport.finish(spec.commandLine().getErr(), report.warnings());
    }

    /**
     * The exact log Z the report compares with: the model's own where it is cheap, more with {@code --compare-exact},
     * which is refused up front where the model has none within reach instead of being dropped without a word.
     */
    Double exactLogZ(Problem problem) {
        Double exact = problem.exactLogZ(compareExact).orElse(null);
        if (compareExact && exact == null) {
            throw new UserException("--compare-exact: " + problem.describe().model() + " has no exact log Z within reach "
                    + "(logz exact --model ... says why)");
        }
        return exact;
    }

    /** The model of {@code --model}, {@code --log-ell} and {@code --log-sigma}. */
    Problem parseProblem() {
        return Problem.parse(model, OptionChecks.optional(logEll), OptionChecks.optional(logSigma));
    }

    /**
     * The command line's own options that --tolerance has no use for (those of the estimation, such as --chains, its
     * {@code Estimation} refuses itself).
     */
    static final List<String> NOT_WITH_TOLERANCE = List.of("--method", "--replicates", "--spark", "--partitions", "--plot",
            "--work", "--reverse-work");

    /** The estimation of the options given on the command line; the others keep the defaults both share. */
    Estimation estimation(Problem problem) {
        Estimation e = new Estimation(problem).method(Family.method(methodName)).seed(seed);
        Map<String, Runnable> options = new LinkedHashMap<>();
        options.put("--data", () -> e.data(data));
        options.put("--base-rate", () -> e.baseRate(baseRate));
        options.put("--likelihood", () -> e.likelihood(likelihoodChoice));
        options.put("--inner", () -> e.inner(inner));
        options.put("--proposal", () -> e.proposal(proposal));
        options.put("--backend", () -> e.backend(backendOptions.backend));
        options.put("--threads", () -> e.threads(backendOptions.threads));
        options.forEach((name, set) -> {
            if (matched(name)) {
                set.run();
            }
        });
        for (FamilyOption<?> option : FamilyOptions.ALL) {
            if (matched(option.name())) {
                set(e, option);
            }
        }
        return e;
    }

    /** Sets the family option on {@code e} to its value on the command line. */
    private <T> void set(Estimation e, FamilyOption<T> option) {
        e.set(option, given(option));
    }

    /** The value of a family option given on the command line, else null. */
    <T> T given(FamilyOption<T> option) {
        return matched(option.name()) ? option.type().cast(spec.findOption(option.name()).getValue()) : null;
    }

    /** The report of the runs: the first run's headline, or with replicates their combination. */
    private EstimateReport report(Estimation estimation, Runs result, Double exact) {
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
        warnings.addAll(estimation.boundWarnings(logZ, stderr == null ? OptionalDouble.empty() : OptionalDouble.of(stderr),
                exact == null ? OptionalDouble.empty() : OptionalDouble.of(exact)));
        Outcome.PathDescription path = result.path();
        return new EstimateReport(method, problem.describe(), path == null ? null : path.path(),
                path == null ? null : path.baseRate(), path == null ? null : path.base(), logZ, stderr, stderrMethod, result.details(), first.backend(),
                distributed == null ? null : new EstimateReport.Spark(sparkMaster, distributed.tasks(),
                        distributed.job().partsPerRun()), seed,
                meanLogZ, sdLogZ, each, exact, exact == null ? null : logZ - exact, EstimateReport.Convention.of(problem, logZ,
                exact), runs.stream().mapToDouble(Estimate::seconds).sum(), List.copyOf(warnings));
    }

    /**
     * Every output writable, none of them an input of the run or another output; the checkpoint a run resumes from may
     * be the one it goes on writing.
     */
    private void checkOutputs() {
        List<AtomicFiles.Named> results = List.of(named(AnnealingOptions.WORK), named(AnnealingOptions.REVERSE_WORK),
                new AtomicFiles.Named("--plot", plot));
        List<AtomicFiles.Named> outputs = new ArrayList<>(results);
        outputs.add(named(SharedOptions.CHECKPOINT));
        List<AtomicFiles.Named> inputs = List.of(new AtomicFiles.Named("--model", OptionChecks.existingFile(model)),
                new AtomicFiles.Named("--data", OptionChecks.existingFile(data)), named(TemperingOptions.PRIOR));
        for (AtomicFiles.Named output : outputs) {
            if (output.path() != null && output.path().toString().isEmpty()) {
                throw new UserException(output.option() + " names no file");
            }
        }
        AtomicFiles.requireDistinct(outputs, inputs);
        AtomicFiles.requireDistinct(results, List.of(named(SharedOptions.RESUME)));
        for (AtomicFiles.Named output : outputs) {
            if (output.path() != null) {
                AtomicFiles.checkWritable(output.path());
            }
        }
    }

    /**
     * {@code --spark} distributes sampling runs, one process's worth each: not a checkpointed run (it saves one process)
     * nor a deterministic approximation; {@code --partitions} belongs to it.
     */
    private void checkSpark(Family family) {
        if (sparkMaster == null) {
            if (matched("--partitions")) {
                throw new UserException("--partitions splits the replicates of a --spark run; add --spark MASTER");
            }
            return;
        }
        if (sparkMaster.isBlank()) {
            throw new UserException("--spark needs a master URL: local[4], spark://host:7077, ...");
        }
        if (partitions != null && (partitions < 1 || partitions > Estimation.MAX_REPLICATES)) {
            throw new UserException("--partitions must be between 1 and " + Estimation.MAX_REPLICATES + ", got "
                    + partitions);
        }
        for (String option : new String[] {"--checkpoint", "--resume"}) {
            if (matched(option)) {
                throw new UserException(option + (option.equals("--resume") ? " continues" : " saves")
                        + " a run in one process; it does not combine with --spark");
            }
        }
        if (family == Family.APPROXIMATION) {
            throw new UserException("--method " + method + " is a deterministic approximation on the host; --spark "
                    + "distributes sampling runs");
        }
    }

    /** A file option with the file given on the command line (null where none is). */
    private AtomicFiles.Named named(FamilyOption<Path> option) {
        return new AtomicFiles.Named(option.name(), given(option));
    }


    public boolean matched(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }


    /** --replicates. */
    public int replicates() {
        return replicates;
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
        EstimateReport.Convention.print(out, r.convention());
        out.printf(Locale.ROOT, "run      %s, seed %d, %.2f s%n", summary, seed, r.seconds());
        if (r.spark() != null) {
            out.printf(Locale.ROOT, "spark    %s, %d task%s%s%n", r.spark().master(), r.spark().tasks(),
                    r.spark().tasks() == 1 ? "" : "s",
                    r.spark().chainParts() > 1 ? ", each run's chains in " + r.spark().chainParts() + " parts" : "");
        }
        out.flush();
    }
}
