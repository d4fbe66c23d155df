package org.logz.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.data.BinaryDataset;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Estimate;
import org.logz.estimate.Replicates;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.exact.RbmEnumeration;
import org.logz.io.AtomicFiles;
import org.logz.model.BaseRate;
import org.logz.path.RbmSequentialPath;
import org.logz.path.RbmTemperedPath;
import org.logz.path.UnitOrder;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz estimate}: runs one estimator on a model and reports log Z. */
@Command(name = "estimate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Estimate log Z of an RBM. Without --model, runs on the embedded demo RBM and also prints its exact log Z.")
final class EstimateCommand implements Runnable {
    private static final Set<String> ANNEALING = Set.of("ais", "raise");
    private static final Set<String> SEQUENTIAL = Set.of("rm", "arm", "arm-anticipate", "arm-reseed");

    @Spec
    CommandSpec spec;

    @Option(names = "--model", paramLabel = "FILE", description = "RBM .npz file (W, a, b, optional a0; or scikit-learn names). Default: the demo RBM.")
    Path model;

    @Option(names = "--method", paramLabel = "M", defaultValue = "ais",
            description = "ais, raise (reverse AIS), rm (Resample-Move), arm, arm-anticipate or arm-reseed. Default: ${DEFAULT-VALUE}.")
    String method;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Philox key. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--data", paramLabel = "NAME|FILE",
            description = "Data set (mnist, digits, or an .npz with X): base rate of ais/raise, unit order and reseeding of rm/arm.")
    String data;

    @Option(names = "--replicates", paramLabel = "B", defaultValue = "1",
            description = "Independent runs (different Philox keys); reports log of the mean Ẑ with a standard error. Default: ${DEFAULT-VALUE}.")
    int replicates;

    @Option(names = "--compare-exact", description = "Also compute the exact log Z by enumeration (always on for the demo).")
    boolean compareExact;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Also plot the run: ESS along β (ais, raise) or R_n and γ along n (rm, arm).")
    Path plot;

    @Option(names = "--chains", paramLabel = "M", defaultValue = "1000", description = "ais/raise: independent chains. Default: ${DEFAULT-VALUE}.")
    int chains;

    @Option(names = "--steps", paramLabel = "K", defaultValue = "1000", description = "ais/raise: annealing steps. Default: ${DEFAULT-VALUE}.")
    int steps;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "linear",
            description = "ais/raise: linear, geometric[:βmin], sigmoid[:δ], piecewise:β/steps,..., or salakhutdinov. Default: ${DEFAULT-VALUE}.")
    String schedule;

    @Option(names = "--base-rate", paramLabel = "B", defaultValue = "auto",
            description = "ais/raise β = 0 distribution: auto (data if --data, else the file's a0, else uniform), data, file, uniform, visible-bias. Default: ${DEFAULT-VALUE}.")
    String baseRate;

    @Option(names = "--reverse-start", paramLabel = "START",
            description = "raise: exact (enumeration; default when the model is small) or gibbs:B (B sweeps at β=1 from the base; default gibbs:1000 otherwise).")
    String reverseStart;

    @Option(names = "--work", paramLabel = "FILE", description = "ais/raise: also write each chain's work value W = -log w, one per line.")
    Path workFile;

    @Option(names = "--particles", paramLabel = "R", defaultValue = "1000", description = "rm/arm: base number of particles. Default: ${DEFAULT-VALUE}.")
    int particles;

    @Option(names = "--gibbs-steps", paramLabel = "t", defaultValue = "10", description = "rm/arm: Gibbs sweeps per move step. Default: ${DEFAULT-VALUE}.")
    int gibbsSteps;

    @Option(names = "--gamma-threshold", paramLabel = "g", defaultValue = "0.7", description = "arm: generate while ESS/R_n < g. Default: ${DEFAULT-VALUE}.")
    double gammaThreshold;

    @Option(names = "--ess-threshold", paramLabel = "e", defaultValue = "0.7", description = "rm: resample when ESS < e·R. Default: ${DEFAULT-VALUE}.")
    double essThreshold;

    @Option(names = "--max-generate", paramLabel = "i", defaultValue = "3", description = "arm: most batches generated per iteration. Default: ${DEFAULT-VALUE}.")
    int maxGenerate;

    @Option(names = "--order", paramLabel = "O",
            description = "rm/arm unit order: natural, variance (needs --data) or random:SEED. Default: variance with --data, else natural.")
    String order;

    @Option(names = "--resampling", paramLabel = "S", defaultValue = "residual",
            description = "rm/arm: residual, systematic or multinomial. Default: ${DEFAULT-VALUE}.")
    String resampling;

    @Option(names = "--reseed-sweeps", paramLabel = "G", defaultValue = "1500", description = "arm-reseed: Gibbs sweeps of each new chain. Default: ${DEFAULT-VALUE}.")
    int reseedSweeps;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public void run() {
        boolean annealing = ANNEALING.contains(method);
        if (!annealing && !SEQUENTIAL.contains(method)) {
            throw new IllegalArgumentException("unknown --method '" + method + "'; use ais, raise, rm, arm, arm-anticipate or arm-reseed");
        }
        rejectForeignOptions(annealing);
        if (replicates < 1) {
            throw new IllegalArgumentException("--replicates must be at least 1, got " + replicates);
        }
        for (Path output : new Path[] {workFile, plot}) {
            if (output != null) {
                AtomicFiles.checkWritable(output);
            }
        }
        ModelSource source = ModelSource.resolve(model);
        Double exact = source.demo() || compareExact ? exactLogZ(source) : null;
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("method", method);
        report.put("model", source.name());
        report.put("visible", source.rbm().visible());
        report.put("hidden", source.rbm().hidden());
        List<? extends Estimate> runs = annealing ? annealing(source, report) : sequential(source, report);
        Estimate first = runs.get(0);
        report.put("backend", first.backend());
        report.put("seed", seed);
        if (runs.size() > 1) {
            Replicates<? extends Estimate> combined = Replicates.of(runs);
            report.put("logZ", combined.logZ());
            report.put("stderr", combined.stdErr());
            report.put("stderrMethod", "replicates");
            report.put("meanLogZ", combined.meanLogZ());
            report.put("sdLogZ", combined.sdLogZ());
            List<Map<String, Object>> each = new ArrayList<>();
            for (Estimate e : runs) {
                each.add(ordered("seed", e.seed(), "logZ", e.logZ(), "stderr",
                        e.standardError().isPresent() ? e.standardError().getAsDouble() : null, "seconds", e.seconds()));
            }
            report.put("replicates", each);
        }
        if (exact != null) {
            report.put("exactLogZ", exact);
            report.put("error", (double) report.get("logZ") - exact);
        }
        report.put("seconds", runs.stream().mapToDouble(Estimate::seconds).sum());
        print(report);
    }

    private void rejectForeignOptions(boolean annealing) {
        var parse = spec.commandLine().getParseResult();
        String[] foreign = annealing
                ? new String[] {"--particles", "--gibbs-steps", "--gamma-threshold", "--ess-threshold", "--max-generate",
                        "--order", "--resampling", "--reseed-sweeps"}
                : new String[] {"--chains", "--steps", "--schedule", "--base-rate", "--reverse-start", "--work"};
        for (String option : foreign) {
            if (parse.hasMatchedOption(option)) {
                throw new IllegalArgumentException(option + " does not apply to --method " + method);
            }
        }
    }

    private List<AnnealingResult> annealing(ModelSource source, Map<String, Object> report) {
        Schedule sched = schedule();
        BaseRate base = source.baseRate(baseRate, data);
        AnnealedImportanceSampling.Start start = method.equals("raise") ? reverseStart(source) : null;
        List<AnnealingResult> runs = new ArrayList<>();
        try (ParticleBackend backend = backendOptions.open();
             RbmTemperedPath path = new RbmTemperedPath(backend, source.rbm(), base)) {
            for (int b = 0; b < replicates; b++) {
                var settings = new AnnealedImportanceSampling.Settings(chains, sched, Philox.replicateSeed(seed, b));
                var ais = new AnnealedImportanceSampling(settings);
                try (Progress progress = Progress.onTerminal(method + replicateLabel(b))) {
                    runs.add(method.equals("ais") ? ais.forward(path, progress) : ais.reverse(path, start, progress));
                }
            }
        }
        AnnealingResult r = runs.get(0);
        report.put("baseRate", base.source());
        report.put("logZ", r.logZ());
        report.put("stderr", r.stdErr());
        report.put("stderrMethod", "delta method on the importance weights");
        report.put("ess", r.ess());
        report.put("chains", r.chains());
        report.put("steps", r.steps());
        report.put("schedule", r.schedule());
        report.put("start", r.start());
        report.put("sweeps", runs.stream().mapToLong(AnnealingResult::sweeps).sum());
        report.put("logZ0", r.logZ0());
        List<Map<String, Object>> trace = new ArrayList<>();
        for (var p : r.trace()) {
            trace.add(ordered("step", p.step(), "beta", p.beta(), "logRatio", p.logRatio(), "ess", p.ess()));
        }
        report.put("trace", trace);
        if (workFile != null) {
            writeWork(workFile, r.work());
        }
        if (plot != null) {
            TracePlot.write(plot, r);
        }
        return runs;
    }

    private List<SequentialResult> sequential(ModelSource source, Map<String, Object> report) {
        ResampleMove.Variant variant = ResampleMove.Variant.parse(method);
        Optional<BinaryDataset> dataSet = Optional.ofNullable(data).map(source::dataSet);
        UnitOrder unitOrder = UnitOrder.parse(order, source.rbm().visible(), dataSet);
        ResamplingScheme scheme = ResamplingScheme.parse(resampling);
        List<SequentialResult> runs = new ArrayList<>();
        try (ParticleBackend backend = backendOptions.open();
             RbmSequentialPath path = new RbmSequentialPath(backend, source.rbm(), unitOrder, dataSet)) {
            for (int b = 0; b < replicates; b++) {
                var settings = new ResampleMove.Settings(variant, particles, gibbsSteps, gammaThreshold, essThreshold,
                        maxGenerate, scheme, reseedSweeps, 100, Philox.replicateSeed(seed, b));
                try (Progress progress = Progress.onTerminal(method + replicateLabel(b))) {
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
        report.put("gibbsSteps", gibbsSteps);
        if (variant != ResampleMove.Variant.RM) {
            report.put("gammaThreshold", gammaThreshold);
            report.put("maxGenerate", maxGenerate);
        } else {
            report.put("essThreshold", essThreshold);
        }
        if (variant == ResampleMove.Variant.RESEED) {
            report.put("reseedSweeps", reseedSweeps);
        }
        report.put("logZ0", r.logZ0());
        List<Map<String, Object>> trace = new ArrayList<>();
        for (var p : r.trace()) {
            trace.add(ordered("unit", p.unit(), "particles", p.particles(), "ess", p.ess(), "gamma", p.gamma(),
                    "resampled", p.resampled(), "logZIncrement", p.logZIncrement()));
        }
        report.put("trace", trace);
        if (plot != null) {
            TracePlot.write(plot, r);
        }
        return runs;
    }

    private String replicateLabel(int b) {
        return replicates > 1 ? " " + (b + 1) + "/" + replicates : "";
    }

    private static Map<String, Object> ordered(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** Work values, one per line, written atomically. */
    static void writeWork(Path file, double[] work) {
        AtomicFiles.write(file, out -> {
            StringBuilder sb = new StringBuilder();
            for (double w : work) {
                sb.append(w).append('\n');
            }
            out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        });
    }

    private Schedule schedule() {
        boolean stepsGiven = spec.commandLine().getParseResult().hasMatchedOption("--steps");
        if (Schedule.definesOwnSteps(schedule)) {
            if (stepsGiven) {
                throw new IllegalArgumentException("--schedule " + schedule + " sets its own steps; drop --steps");
            }
            return Schedule.parse(schedule, 0);
        }
        return Schedule.parse(schedule, steps);
    }

    private AnnealedImportanceSampling.Start reverseStart(ModelSource source) {
        String startSpec = reverseStart;
        if (startSpec == null) {
            startSpec = RbmEnumeration.canSample(source.rbm()) ? "exact" : "gibbs:1000";
        }
        String s = startSpec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("exact")) {
            if (!RbmEnumeration.canSample(source.rbm())) {
                throw new IllegalArgumentException("--reverse-start exact needs a layer of at most "
                        + RbmEnumeration.MAX_SAMPLING_UNITS + " units; use gibbs:B");
            }
            return new AnnealedImportanceSampling.Start.Exact();
        }
        if (s.startsWith("gibbs:")) {
            try {
                return new AnnealedImportanceSampling.Start.Gibbs(Integer.parseInt(s.substring(6)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--reverse-start " + startSpec + ": B must be an integer");
            }
        }
        throw new IllegalArgumentException("--reverse-start must be exact or gibbs:B, got " + startSpec);
    }

    private static Double exactLogZ(ModelSource source) {
        if (!RbmEnumeration.canEnumerate(source.rbm())) {
            throw new IllegalArgumentException("--compare-exact: " + source.rbm() + " is too large to enumerate");
        }
        return RbmEnumeration.logZ(source.rbm());
    }

    private void print(Map<String, Object> o) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(out, o);
            return;
        }
        out.printf(Locale.ROOT, "method   %s on %s%n", o.get("method"), o.get("backend"));
        out.printf(Locale.ROOT, "model    %s, %s×%s%s%n", o.get("model"), o.get("visible"), o.get("hidden"),
                o.containsKey("baseRate") ? ", base rate " + o.get("baseRate") : ", order " + o.get("order"));
        Object se = o.get("stderr");
        out.printf(Locale.ROOT, "log Z    %.4f%s%s%n", (double) o.get("logZ"),
                se == null ? " (no single-run standard error; use --replicates)" : String.format(Locale.ROOT, " ± %.4f", (double) se),
                o.containsKey("replicates") ? " (" + replicates + " replicates, " + o.get("stderrMethod") + ")" : "");
        if (o.containsKey("exactLogZ")) {
            out.printf(Locale.ROOT, "exact    %.4f (error %+.4f)%n", (double) o.get("exactLogZ"), (double) o.get("error"));
        }
        if (o.containsKey("chains")) {
            out.printf(Locale.ROOT, "run      %s chains × %s steps (%s schedule, start %s), ESS %.1f, seed %d, %.2f s%n",
                    o.get("chains"), o.get("steps"), o.get("schedule"), o.get("start"), (double) o.get("ess"), seed,
                    (double) o.get("seconds"));
        } else {
            out.printf(Locale.ROOT, "run      R = %s particles (mean R_n %.1f), %s resamplings, %s particle-steps, seed %d, %.2f s%n",
                    o.get("particles"), (double) o.get("meanParticles"), o.get("resamplings"), o.get("particleSteps"), seed,
                    (double) o.get("seconds"));
        }
        out.flush();
    }
}
