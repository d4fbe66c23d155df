package org.logz.bench.cli;

import static org.logz.cli.OptionChecks.atLeast;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.bench.GpcSweepBenchmark;
import org.logz.bench.KernelSurvey;
import org.logz.bench.PeerBenchmark;
import org.logz.bench.Roofline;
import org.logz.comparison.SequentialComparison;
import org.logz.bench.SweepBenchmark;
import org.logz.comparison.TemperedComparison;
import org.logz.comparison.WorkTable;
import org.logz.bench.cli.AiselBench;
import org.logz.cli.BackendOptions;
import org.logz.cli.ReferenceOption;
import org.logz.cli.Json;
import org.logz.cli.Main;
import org.logz.cli.Progress;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.io.AtomicFiles;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmProblem;
import org.logz.model.rbm.RbmSource;
import org.logz.path.TemperedPath;
import org.logz.problem.Problem;
import org.logz.problem.Reference;
import org.logz.schedule.Schedule;
import org.logz.cli.OptionChecks;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bench}: speed measurements reported as ratios measured in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = {BenchCommand.Sweep.class, BenchCommand.Peers.class, BenchCommand.Sequential.class, BenchCommand.Tempered.class,
        BenchCommand.Work.class, GpcBench.class, SchedulesBench.class, AiselBench.class,
        CalibrationBench.class, SparkBench.class},
        description = "Benchmarks; speed is reported as ratios to the matrix products measured in the same run.")
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Without a benchmark there is nothing to run: a usage error, as for {@code logz} alone. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("logz: a benchmark is missing; one of " + String.join(", ",
                spec.commandLine().getSubcommands().keySet()) + " (see 'logz bench --help')");
        return Main.USER_ERROR;
    }

    @Command(name = "sweep", mixinStandardHelpOptions = true,
            description = "Gibbs sweeps and AIS steps per second, and their time over the time of their two matrix products alone.")
    static final class Sweep implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--model", paramLabel = "MODEL", description = "RBM .npz, or gpc:SET|FILE (GP classification: a "
                + "Gibbs sweep and an elliptical slice transition against the float64 products of the same shapes). "
                + "Default: a random 784×500 RBM (seed 1).")
        String model;

        @Option(names = {"--log-ell"}, paramLabel = "L", description = "gpc: log length scale (default: the file's, else 4.85).")
        Double logEll;

        @Option(names = {"--log-sigma"}, paramLabel = "S", description = "gpc: log signal standard deviation (default: the file's, else 5.1).")
        Double logSigma;

        @Option(names = "--project", paramLabel = "GPU", description = "With --backend cuda-emulated: instead of timing, "
                + "profile the hot kernels in the emulator (coalescing, bank conflicts, divergence, compulsory bytes; "
                + "ptxas registers, spills and occupancy on sm_80 and sm_90) and project a sweep of --project-chains "
                + "chains of the model onto GPU's roofline (h100 or a100) beside the cuBLAS SGEMM pair's. --chains "
                + "(default 64 here) sizes the emulated runs.")
        String project;

        @Option(names = "--project-chains", paramLabel = "R", defaultValue = "10000",
                description = "Chains of the projected sweep. Default: ${DEFAULT-VALUE}.")
        int projectChains;

        @Mixin
        SweepOptions timing;

        @Mixin
        BackendOptions backendOptions;

        @Override
        public void run() {
            int threads = timing.checkedThreads(backendOptions);
            Problem problem = model == null ? null : Problem.parse(model, OptionChecks.optional(logEll),
                    OptionChecks.optional(logSigma));
            if (project == null && spec.commandLine().getParseResult().hasMatchedOption("--project-chains")) {
                throw new UserException("--project-chains applies only with --project GPU");
            }
            if (project != null) {
                for (String timingOnly : List.of("--sweeps", "--repeats", "--runs", "--no-runs", "--threads")) {
                    if (spec.commandLine().getParseResult().hasMatchedOption(timingOnly)) {
                        throw new UserException(timingOnly + " does not apply to --project (nothing is timed)");
                    }
                }
                if (problem != null && problem.rbm().isEmpty()) {
                    throw new UserException("--project projects an RBM's sweep, not " + model);
                }
            }
            if (problem != null && problem.classifier().isPresent()) {
                if (spec.commandLine().getParseResult().hasMatchedOption("--sweeps")) {
                    throw new UserException("--sweeps does not apply to gpc: models (one sweep per repetition)");
                }
                GpcSweepBenchmark.Result r;
                try (ParticleBackend backend = backendOptions.open()) {
                    r = GpcSweepBenchmark.run(backend, problem.classifier().orElseThrow(), new GpcSweepBenchmark.Settings(timing.chains, timing.repeats, threads));
                }
                Json.print(spec.commandLine().getOut(), new GpcReport(model, r));
                return;
            }
            if (problem != null && problem.rbm().isEmpty()) {
                throw new UserException("bench sweep runs on RBMs and gpc: models, not " + model);
            }
            Rbm rbm = problem == null ? RandomRbm.create(784, 500, 0.05, 1) : problem.rbm().orElseThrow();
            if (project != null) {
                project(rbm);
                return;
            }
            SweepBenchmark.Result r;
            try (ParticleBackend backend = backendOptions.open()) {
                r = SweepBenchmark.run(backend, rbm, BaseRate.uniform(rbm.visible()),
                        new SweepBenchmark.Settings(timing.chains, timing.sweeps, timing.repeats, threads, timing.runs));
            }
            Json.print(spec.commandLine().getOut(), new Report(model == null ? "random 784×500" : model,
                    r.backend(), r.backendDescription(), r.visible(), r.hidden(), r.chains(), r.threads(), r.sweepsPerSecond(),
                    r.sweepsPerSecond() * r.chains(), r.sweepOverBestGemm(), r.sweepOverBestDenseGemm(),
                    r.sweepOverOwnProducts(), r.annealOverSweep(), r.temperOverAnneal(),
                    r.runs() == null ? null : r.runs().rtsOverAis(), r.bestGemm().library(),
                    r.bestDenseGemm().library(), r.bestGemmGflops(), r.sweepSeconds(),
                    r.annealStepSeconds(), r.temperSeconds(), r.ownProductSeconds(), r.floors(), r.runs()));
        }

        private void project(Rbm rbm) {
            Roofline gpu = Roofline.parse(project);
            OptionChecks.atLeast("--project-chains", projectChains, 1);
            // the sweep's device buffers: states x and h and both products, float32, and W
            double bytes = 8.0 * projectChains * (rbm.visible() + rbm.hidden()) + 4.0 * rbm.visible() * rbm.hidden();
            if (bytes > gpu.memoryBytes) {
                throw new UserException(String.format(Locale.ROOT, "--project-chains %d: the sweep's states and W need "
                        + "%.0f GB, more than the %s's %.0f GB", projectChains, bytes / 1e9, gpu.label,
                        gpu.memoryBytes / 1e9));
            }
            int chains = spec.commandLine().getParseResult().hasMatchedOption("--chains") ? timing.chains : 64;
            if (chains < 2) {
                throw new UserException("--chains " + chains + ": the survey runs tempered sampling, which needs at "
                        + "least 2 chains");
            }
            if (System.getProperty("logz.emulator.checks") == null && System.getenv("LOGZ_EMULATOR_CHECKS") == null) {
                // read when the emulator's library loads, which opening the backend does
                System.setProperty("logz.emulator.checks", "profile");
            }
            KernelSurvey.Result survey;
            String description;
            try (ParticleBackend backend = backendOptions.open()) {
                description = backend.description();
                survey = KernelSurvey.run(backend, rbm, model == null ? "random 784×500" : model, chains);
            }
            List<String> shortfalls = survey.shortfalls().stream()
                    .map(k -> k.kernel() + ": " + String.join(", ", k.shortfalls())).toList();
            Json.print(spec.commandLine().getOut(), new ProjectionReport(survey.model(), description, survey.chains(),
                    KernelSurvey.project(survey, gpu, projectChains), survey.kernels(), shortfalls));
        }

        /**
         * The JSON of {@code bench sweep --project}: the sweep on the GPU's roofline, every surveyed kernel with its
         * counts, and the kernels that miss a target (KernelSurvey's).
         */
        record ProjectionReport(String model, String backendDescription, int surveyChains,
                                KernelSurvey.Projection projection, List<KernelSurvey.Kernel> kernels,
                                List<String> shortfalls) {
        }

        /** The JSON of {@code bench sweep --model gpc:...}. */
        record GpcReport(String model, @JsonUnwrapped GpcSweepBenchmark.Result result) {
        }

        /**
         * The JSON of {@code bench sweep}: throughput, the sweep's time over the best whole-shape product pair (named,
         * with every candidate's seconds under {@code floors}) and over the backend's own products as its kernels lay
         * them out, over the best dense pair, an AIS step's time over a sweep, a tempered (RTS) iteration's over an
         * AIS step, and (unless --no-runs) a whole default RTS run's time per chain-sweep over an AIS run's.
         */
        record Report(String model, String backend, String backendDescription, int visible, int hidden, int chains,
                      int threads, double sweepsPerSecond,
                      double chainSweepsPerSecond, double sweepOverBestGemm, double sweepOverBestDenseGemm,
                      double sweepOverOwnProducts, double aisStepOverSweep, double rtsIterationOverAisStep,
                      Double rtsRunOverAisRun, String bestGemm, String bestDenseGemm, double bestGemmGflops,
                      double sweepSeconds, double aisStepSeconds, double rtsIterationSeconds, double ownProductSeconds,
                      List<SweepBenchmark.Floor> floors, SweepBenchmark.Runs runs) {
        }
    }

    @Command(name = "peers", mixinStandardHelpOptions = true,
            description = "logz's Gibbs sweep next to scikit-learn's BernoulliRBM.gibbs (float32 and float64) and a PyTorch "
                    + "sweep on the same RBM, chains and threads, in one run (python3 with python3-sklearn and python3-torch; "
                    + "a missing one is named, not timed).")
    static final class Peers implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--model", paramLabel = "MODEL", description = "RBM .npz. Default: a random 784×500 RBM (seed 1).")
        String model;

        @Mixin
        SweepOptions timing;

        @Option(names = "--python", paramLabel = "PATH", description = "The interpreter with the peers' packages (default: "
                + "/usr/bin/python3 when present, else python3).")
        String python;

        @Mixin
        BackendOptions backendOptions;

        @Override
        public void run() {
            int threads = timing.checkedThreads(backendOptions);
            Problem problem = model == null ? null : Problem.parse(model, OptionChecks.optional(null),
                    OptionChecks.optional(null));
            if (problem != null && problem.rbm().isEmpty()) {
                throw new UserException("bench peers runs on RBMs, not " + model);
            }
            Rbm rbm = problem == null ? RandomRbm.create(784, 500, 0.05, 1) : problem.rbm().orElseThrow();
            PeerBenchmark.Result r;
            try (ParticleBackend backend = backendOptions.open()) {
                r = PeerBenchmark.run(backend, rbm, new PeerBenchmark.Settings(timing.chains, timing.sweeps, timing.repeats, threads, timing.runs,
                        python == null ? PeerBenchmark.Settings.defaultPython() : python));
            }
            Json.print(spec.commandLine().getOut(), new PeersReport(model == null ? "random 784×500" : model, r));
        }

        /** The JSON of {@code bench peers}. */
        record PeersReport(String model, @JsonUnwrapped PeerBenchmark.Result result) {
        }
    }

    @Command(name = "sequential", mixinStandardHelpOptions = true,
            description = "Resample-Move against the ARM variants on a model with exact log Z or a reference (the ARM paper's "
                    + "Figure 4 as a table).")
    static final class Sequential implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--model", required = true, paramLabel = "FILE", description = "RBM .npz whose smaller layer can be "
                + "enumerated, or any RBM with a reference (--reference, or the one logz stores for the CD-25 RBM).")
        Path model;

        @Option(names = "--data", required = true, paramLabel = "NAME|FILE", description = "Data for the unit order (decreasing variance) and reseeding.")
        String data;

        @Option(names = "--runs", split = ",", defaultValue = "rm:150,arm:100,arm-anticipate:100,arm-reseed:100",
                description = "METHOD:R entries. Default: ${DEFAULT-VALUE}.")
        List<String> runs;

        @Option(names = "--replicates", defaultValue = "20", description = "Replicates per entry. Default: ${DEFAULT-VALUE}.")
        int replicates;

        @Option(names = "--gibbs-steps", defaultValue = "10", description = "Default: ${DEFAULT-VALUE}.")
        int gibbsSteps;

        @Option(names = "--reseed-sweeps", defaultValue = "1500", description = "Default: ${DEFAULT-VALUE}.")
        int reseedSweeps;

        @Mixin
        TableOptions table;

        @Mixin
        ReferenceOption referenceOption;

        @Mixin
        BackendOptions backendOptions;

        @Override
        public void run() {
            table.checkWritable(new AtomicFiles.Named("--model", model),
                    new AtomicFiles.Named("--data", OptionChecks.existingFile(data)));
            atLeast("--replicates", replicates, 2);
            atLeast("--gibbs-steps", gibbsSteps, 0);
            atLeast("--reseed-sweeps", reseedSweeps, 1);
            List<SequentialComparison.Entry> entries = runs.stream().map(SequentialComparison.Entry::parse).toList();
            RbmSource source = RbmSource.resolve(model);
            Reference against = referenceOption.require(new RbmProblem(source), "bench sequential");
            BinaryDataset set = Datasets.load(data);
            List<SequentialComparison.Row> rows;
            try (ParticleBackend backend = backendOptions.open(); Progress progress = Progress.onTerminal("bench")) {
                rows = SequentialComparison.run(backend, source.rbm(), against.logZ(), set, entries, replicates, gibbsSteps,
                        reseedSweeps, table.seed, progress);
            }
            String markdown = SequentialComparison.markdown(against, rows);
            table.write(markdown);
            Json.print(spec.commandLine().getOut(), new Report(model.toString(), against, replicates, gibbsSteps,
                    reseedSweeps, rows, markdown));
        }

        /** The JSON of {@code bench sequential}: one row per method and particle count. */
        record Report(String model, Reference against, int replicates, int gibbsSteps, int reseedSweeps,
                      List<SequentialComparison.Row> rows, String table) {
        }
    }

    /** Comma-separated integers of at least 1, or a message naming the option. */
    private static int[] integers(String option, String values) {
        int[] out;
        try {
            out = java.util.Arrays.stream(values.split(",")).mapToInt(v -> Integer.parseInt(v.trim())).toArray();
        } catch (NumberFormatException e) {
            throw new UserException(option + " takes comma-separated integers, got " + values);
        }
        for (int v : out) {
            atLeast(option, v, 1);
        }
        return out;
    }

    @Command(name = "tempered", mixinStandardHelpOptions = true,
            description = "RTS, TI, TI-RB and MBAR against AIS and RAISE at matched Gibbs sweeps per chain (Carlson et al. "
                    + "2016, Figure 3): RMSE, bias and spread over seeds at several budgets, on a model with exact log Z "
                    + "or a reference.")
    static final class Tempered implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--model", required = true, paramLabel = "MODEL", description = "RBM .npz small enough to enumerate, or ising:L=N.")
        String model;

        @Option(names = "--budgets", defaultValue = "500,2000,8000", paramLabel = "N,N,...",
                description = "Final RTS sweeps of each budget; AIS gets the same total sweeps per chain. Default: ${DEFAULT-VALUE}.")
        String budgets;

        @Option(names = "--seeds", defaultValue = "20", description = "Seeds per budget. Default: ${DEFAULT-VALUE}.")
        int seeds;

        @Option(names = "--chains", defaultValue = "100", description = "Parallel chains of every method. Default: ${DEFAULT-VALUE}.")
        int chains;

        @Option(names = "--levels", defaultValue = "100", description = "RTS inverse temperatures. Default: ${DEFAULT-VALUE}.")
        int levels;

        @Option(names = "--round-sweeps", defaultValue = "50", description = "Sweeps per initial round. Default: ${DEFAULT-VALUE}.")
        int roundSweeps;

        @Option(names = "--rounds", defaultValue = "6", description = "Most initial rounds, each twice as long as the one before. Default: ${DEFAULT-VALUE}.")
        int rounds;

        @Mixin
        TableOptions table;

        @Mixin
        ReferenceOption referenceOption;

        @Mixin
        BackendOptions backendOptions;

        @Override
        public void run() {
            table.checkWritable(new AtomicFiles.Named("--model", OptionChecks.existingFile(model)));
            atLeast("--seeds", seeds, 2);
            atLeast("--chains", chains, 2);
            atLeast("--levels", levels, 2);
            atLeast("--round-sweeps", roundSweeps, 1);
            atLeast("--rounds", rounds, 1);
            int[] finalSweeps = integers("--budgets", budgets);
            Problem problem = Problem.parse(model);
            Reference against = referenceOption.require(problem, "bench tempered");
            List<TemperedComparison.Row> rows;
            try (ParticleBackend backend = backendOptions.open();
                 TemperedPath path = problem.temperingPath(backend, new Problem.PathOptions("auto", null, 1, 1));
                 Progress progress = Progress.onTerminal("bench")) {
                AnnealedImportanceSampling.Start start = problem.reverseStart(null, path, chains);
                rows = TemperedComparison.run(path, start, against.logZ(), finalSweeps, seeds, chains, levels, roundSweeps, rounds,
                        table.seed, progress);
            }
            String markdown = TemperedComparison.markdown(against, rows);
            table.write(markdown);
            Json.print(spec.commandLine().getOut(), new Report(model, against, seeds, chains, levels, rows, markdown));
        }

        /** The JSON of {@code bench tempered}: one row per budget and method. */
        record Report(String model, Reference against, int seeds, int chains, int levels, List<TemperedComparison.Row> rows,
                      String table) {
        }
    }

    @Command(name = "work", mixinStandardHelpOptions = true,
            description = "Habeck's table (2017, §6.1): bounds, AIS, RAISE, cumulant, BAR and histogram estimates of "
                    + "log(Z/Z_0) against the exact value (where the model has one), one row per number of sweeps per "
                    + "annealing step (or a reference: --reference, or the one logz stores); with --budget, K × N fixed as in "
                    + "his Fig. 4A.")
    static final class Work implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--model", defaultValue = "ising:L=32", paramLabel = "MODEL",
                description = "ising:L=N, potts:q=Q,L=N, gauss-toy or an RBM; the exact column is empty where the model "
                        + "has no exact log Z. Default: ${DEFAULT-VALUE}.")
        String model;

        @Option(names = "--chains", defaultValue = "1000", description = "Forward and reverse chains (M). Default: ${DEFAULT-VALUE}.")
        int chains;

        @Option(names = "--steps", defaultValue = "1000", description = "Annealing steps (K), linear schedule. Default: ${DEFAULT-VALUE}.")
        int steps;

        @Option(names = "--budget", paramLabel = "B",
                description = "Sweeps per chain K × N held fixed (Habeck Fig. 4A): each row anneals B/N steps instead of "
                        + "--steps; B must be a multiple of every N.")
        Integer budget;

        @Option(names = "--sweeps-per-step", defaultValue = "1", paramLabel = "N,N,...",
                description = "Transitions per step, one row each (RBM Gibbs sweeps, Ising heat-bath sweeps). Default: ${DEFAULT-VALUE}.")
        String sweepsPerStep;

        @Mixin
        TableOptions table;

        @Mixin
        ReferenceOption referenceOption;

        @Mixin
        BackendOptions backendOptions;

        @Override
        public void run() {
            table.checkWritable(new AtomicFiles.Named("--model", OptionChecks.existingFile(model)));
            atLeast("--chains", chains, 2);
            atLeast("--steps", steps, 1);
            int[] sweeps = integers("--sweeps-per-step", sweepsPerStep);
            if (budget != null) {
                if (spec.commandLine().getParseResult().hasMatchedOption("--steps")) {
                    throw new UserException("--budget sets each row's steps (B/N); leave out --steps");
                }
                for (int n : sweeps) {
                    if (budget < n || budget % n != 0) {
                        throw new UserException("--budget " + budget + " must be a positive multiple of every "
                                + "--sweeps-per-step, not of " + n);
                    }
                }
            }
            Problem problem = Problem.parse(model);
            Optional<Reference> against = referenceOption.optional(problem);
            double exact = against.map(Reference::logZ).orElse(Double.NaN);
            List<WorkTable.Row> rows;
            try (ParticleBackend backend = backendOptions.open(); Progress progress = Progress.onTerminal("bench")) {
                rows = WorkTable.run(n -> problem.annealingPath(backend, new Problem.PathOptions("auto", null, n, 1)),
                        (path, m) -> problem.reverseStart(null, path, m), exact, sweeps, chains,
                        n -> Schedule.linear(budget == null ? steps : budget / n), table.seed, progress);
            }
            String markdown = WorkTable.markdown(rows, against.map(Reference::kind).orElse(Reference.EXACT));
            table.write(markdown);
            Json.print(spec.commandLine().getOut(), new Report(model, against.orElse(null), rows, markdown));
        }

        /** The JSON of {@code bench work}: one row per number of transitions per step. */
        record Report(String model, Reference against, List<WorkTable.Row> rows, String table) {
        }
    }
}
