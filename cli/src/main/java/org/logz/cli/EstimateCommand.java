package org.logz.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.backend.ParticleBackend;
import org.logz.bench.TracePlot;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.TracePoint;
import org.logz.exact.RbmEnumeration;
import org.logz.io.AtomicFiles;
import org.logz.model.BaseRate;
import org.logz.path.RbmTemperedPath;
import org.logz.schedule.Schedule;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz estimate}: runs one estimator on a model and reports log Z. */
@Command(name = "estimate", mixinStandardHelpOptions = true,
        description = "Estimate log Z of an RBM. Without --model, runs on the embedded demo RBM and also prints its exact log Z.")
final class EstimateCommand implements Runnable {
    enum Method { ais, raise }

    @Spec
    CommandSpec spec;

    @Option(names = "--model", paramLabel = "FILE", description = "RBM .npz file (W, a, b, optional a0; or scikit-learn names). Default: the demo RBM.")
    Path model;

    @Option(names = "--method", paramLabel = "M", defaultValue = "ais", description = "ais or raise (reverse AIS). Default: ${DEFAULT-VALUE}.")
    Method method;

    @Option(names = "--chains", paramLabel = "M", defaultValue = "1000", description = "Independent chains. Default: ${DEFAULT-VALUE}.")
    int chains;

    @Option(names = "--steps", paramLabel = "K", defaultValue = "1000", description = "Annealing steps. Default: ${DEFAULT-VALUE}.")
    int steps;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "linear",
            description = "linear, geometric[:βmin], sigmoid[:δ], piecewise:β/steps,..., or salakhutdinov. Default: ${DEFAULT-VALUE}.")
    String schedule;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Philox key. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--data", paramLabel = "NAME|FILE",
            description = "Data set (mnist, digits, or an .npz with X); its smoothed means are the base rate unless --base-rate says otherwise.")
    String data;

    @Option(names = "--base-rate", paramLabel = "B", defaultValue = "auto",
            description = "β = 0 distribution: auto (data if --data, else the file's a0, else uniform), data, file, uniform, visible-bias. Default: ${DEFAULT-VALUE}.")
    String baseRate;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Also plot the run's ESS along β.")
    Path plot;

    @Option(names = "--reverse-start", paramLabel = "START",
            description = "Start of raise: exact (enumeration; default when the model is small) or gibbs:B (B sweeps at β=1 from the base; default gibbs:1000 otherwise).")
    String reverseStart;

    @Option(names = "--work", paramLabel = "FILE", description = "Also write each chain's work value W = -log w, one per line.")
    Path workFile;

    @Option(names = "--compare-exact", description = "Also compute the exact log Z by enumeration (always on for the demo).")
    boolean compareExact;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public void run() {
        Schedule sched = schedule();
        for (Path output : new Path[] {workFile, plot}) {
            if (output != null) {
                AtomicFiles.checkWritable(output);
            }
        }
        ModelSource source = ModelSource.resolve(model);
        BaseRate base = source.baseRate(baseRate, data);
        AnnealedImportanceSampling.Settings settings = new AnnealedImportanceSampling.Settings(chains, sched, seed);
        AnnealedImportanceSampling.Start start = method == Method.raise ? reverseStart(source) : null;
        Double exact = source.demo() || compareExact ? exactLogZ(source) : null;
        AnnealingResult result;
        try (ParticleBackend backend = backendOptions.open();
             RbmTemperedPath path = new RbmTemperedPath(backend, source.rbm(), base);
             Progress progress = Progress.onTerminal(method.name())) {
            AnnealedImportanceSampling ais = new AnnealedImportanceSampling(settings);
            result = method == Method.ais ? ais.forward(path, progress) : ais.reverse(path, start, progress);
        }
        if (workFile != null) {
            writeWork(workFile, result.work());
        }
        if (plot != null) {
            TracePlot.write(plot, result);
        }
        print(source, base, result, exact);
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
        String spec = reverseStart;
        if (spec == null) {
            spec = RbmEnumeration.canSample(source.rbm()) ? "exact" : "gibbs:1000";
        }
        String s = spec.trim().toLowerCase(Locale.ROOT);
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
                throw new IllegalArgumentException("--reverse-start " + spec + ": B must be an integer");
            }
        }
        throw new IllegalArgumentException("--reverse-start must be exact or gibbs:B, got " + spec);
    }

    private static Double exactLogZ(ModelSource source) {
        if (!RbmEnumeration.canEnumerate(source.rbm())) {
            throw new IllegalArgumentException("--compare-exact: " + source.rbm() + " is too large to enumerate");
        }
        return RbmEnumeration.logZ(source.rbm());
    }

    private void print(ModelSource source, BaseRate base, AnnealingResult r, Double exact) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("method", r.method());
            o.put("backend", r.backend());
            o.put("model", source.name());
            o.put("visible", source.rbm().visible());
            o.put("hidden", source.rbm().hidden());
            o.put("baseRate", base.source());
            o.put("logZ", r.logZ());
            o.put("stderr", r.stdErr());
            o.put("ess", r.ess());
            if (exact != null) {
                o.put("exactLogZ", exact);
                o.put("error", r.logZ() - exact);
            }
            o.put("seconds", r.seconds());
            o.put("chains", r.chains());
            o.put("steps", r.steps());
            o.put("schedule", r.schedule());
            o.put("start", r.start());
            o.put("seed", r.seed());
            o.put("sweeps", r.sweeps());
            o.put("logZ0", r.logZ0());
            List<Map<String, Object>> trace = new ArrayList<>();
            for (TracePoint p : r.trace()) {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("step", p.step());
                t.put("beta", p.beta());
                t.put("logRatio", p.logRatio());
                t.put("ess", p.ess());
                trace.add(t);
            }
            o.put("trace", trace);
            Json.print(out, o);
            return;
        }
        out.printf(Locale.ROOT, "method   %s on %s%n", r.method(), r.backend());
        out.printf(Locale.ROOT, "model    %s, %d×%d, base rate %s%n", source.name(), source.rbm().visible(),
                source.rbm().hidden(), base.source());
        out.printf(Locale.ROOT, "log Z    %.4f ± %.4f (ESS %.1f of %d)%n", r.logZ(), r.stdErr(), r.ess(), r.chains());
        if (exact != null) {
            out.printf(Locale.ROOT, "exact    %.4f (error %+.4f)%n", exact, r.logZ() - exact);
        }
        out.printf(Locale.ROOT, "run      %d chains × %d steps (%s schedule, start %s), seed %d, %.2f s%n", r.chains(),
                r.steps(), r.schedule(), r.start(), r.seed(), r.seconds());
        out.flush();
    }
}
