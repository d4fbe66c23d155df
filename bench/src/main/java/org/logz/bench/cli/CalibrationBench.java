package org.logz.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.logz.base.UserException;
import org.logz.cli.Json;
import org.logz.cli.Main;
import org.logz.cli.OptionChecks;
import org.logz.cli.Progress;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code logz bench calibration}: are the standard errors honest? Every estimator runs, through the
 * same {@code logz estimate} a user runs, on models with an exact log Z over many seeds, and the
 * z-scores {@code (estimate - exact) / SE} are summarized: a calibrated SE gives mean ≈ 0, RMS ≈ 1
 * and almost none beyond 3. An SE from B batches follows Student's t with B - 1 degrees of freedom,
 * whose RMS is {@code sqrt((B-1)/(B-3))} (1.13 for ten groups), hence the accepted band [0.7, 1.5].
 */
@Command(name = "calibration", mixinStandardHelpOptions = true,
        description = "z-scores (estimate - exact) / SE of every estimator over many seeds, on the demo RBM, the 6×6 "
                + "and 16×16 Ising models and the Gaussian toy: mean, RMS and the fraction beyond 3.")
final class CalibrationBench implements Runnable {
    /** RMS z-scores inside this band count as calibrated. */
    static final double LOW = 0.7;
    static final double HIGH = 1.5;

    /** One family run on one model: the arguments of {@code logz estimate} beyond --seed and --json. */
    record Case(String name, List<String> args) {
    }

    /**
     * The cases: settings small enough that 30 seeds of all of them take minutes, large enough to be
     * non-trivial. RM runs with multinomial resampling, where its single-run (Lee-Whiteley) standard error
     * is sound, and with residual resampling in its default 4 islands; ARM in its default 4 islands. Ising reverse runs start from the ground states
     * followed by 100 sweeps at β = 1, so their start is close to p_1 and only the SE is on trial.
     */
    static final List<Case> CASES = List.of(
            new Case("demo-ais", List.of("--method", "ais", "--chains", "200", "--steps", "300")),
            new Case("demo-raise", List.of("--method", "raise", "--chains", "200", "--steps", "300")),
            new Case("demo-work", List.of("--method", "bar", "--chains", "200", "--steps", "300", "--bootstraps", "50")),
            new Case("demo-tempered", List.of("--method", "rts", "--chains", "50", "--levels", "30", "--sweeps", "1000",
                    "--mbar-samples", "5000")),
            new Case("demo-rm", List.of("--method", "rm", "--particles", "200", "--resampling", "multinomial")),
            new Case("demo-rm-islands", List.of("--method", "rm", "--particles", "200")),
            new Case("demo-arm", List.of("--method", "arm", "--particles", "100", "--gibbs-steps", "5")),
            new Case("demo-pt", List.of("--method", "pt", "--levels", "16", "--sweeps", "1000")),
            new Case("ising6-pt", List.of("--model", "ising:L=6", "--method", "pt", "--levels", "48", "--sweeps", "1000")),
            new Case("ising6-ais", List.of("--model", "ising:L=6", "--method", "ais", "--chains", "200", "--steps", "500")),
            new Case("ising6-work", List.of("--model", "ising:L=6", "--method", "bar", "--chains", "200", "--steps", "500",
                    "--reverse-start", "ground:100", "--bootstraps", "50")),
            new Case("ising6-tempered", List.of("--model", "ising:L=6", "--method", "rts", "--chains", "50", "--levels",
                    "50", "--sweeps", "1000", "--mbar-samples", "5000")),
            new Case("ising16-ais", List.of("--model", "ising:L=16", "--method", "ais", "--chains", "200", "--steps", "1000")),
            new Case("ising16-tempered", List.of("--model", "ising:L=16", "--method", "rts", "--chains", "50", "--levels",
                    "100", "--sweeps", "1000", "--mbar-samples", "5000")),
            new Case("toy-ais", List.of("--model", "gauss-toy", "--method", "ais", "--chains", "200", "--steps", "1000")),
            new Case("toy-work", List.of("--model", "gauss-toy", "--method", "bar", "--chains", "200", "--steps", "1000",
                    "--bootstraps", "50")),
            new Case("demo-smc", List.of("--method", "smc", "--particles", "200")),
            new Case("ising6-smc", List.of("--model", "ising:L=6", "--method", "smc", "--particles", "200")),
            new Case("toy-smc", List.of("--model", "gauss-toy", "--method", "smc", "--particles", "200")));

    @Spec
    CommandSpec spec;

    @Option(names = "--seeds", defaultValue = "30", description = "Seeds per case. Default: ${DEFAULT-VALUE}.")
    int seeds;

    @Option(names = "--cases", split = ",", paramLabel = "NAME,...",
            description = "Only these cases (demo-ais, demo-raise, demo-work, demo-tempered, demo-rm, demo-rm-islands, "
                    + "demo-arm, demo-pt, ising6-pt, ising6-ais, "
                    + "ising6-work, ising6-tempered, ising16-ais, ising16-tempered, toy-ais, toy-work, demo-smc, ising6-smc, toy-smc). "
                    + "Default: all.")
    List<String> only;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "cpu", description = "Backend. Default: ${DEFAULT-VALUE}.")
    String backend;

    @Mixin
    TableOptions table;

    /** One estimator's z-scores on one case. */
    record Row(String model, String estimator, String settings, int seeds, int failed, int warned, double meanZ,
               double rmsZ, double beyond3, boolean calibrated) {
    }

    @Override
    public void run() {
        table.checkWritable();
        OptionChecks.atLeast("--seeds", seeds, 2);
        List<Case> cases = selected();
        Map<String, List<Double>> z = new LinkedHashMap<>();
        Map<String, int[]> missingWarned = new LinkedHashMap<>();
        Map<String, Case> caseOf = new LinkedHashMap<>();
        Map<Case, Integer> failedRuns = new LinkedHashMap<>();
        long done = 0;
        try (Progress progress = Progress.onTerminal("calibration")) {
            for (Case c : cases) {
                for (int s = 0; s < seeds; s++) {
                    JsonNode result = estimate(c, table.seed + s);
                    if (result == null) {
                        failedRuns.merge(c, 1, Integer::sum);
                    } else {
                        record(c, result, z, missingWarned, caseOf);
                    }
                    progress.progress(++done, (long) cases.size() * seeds, Double.NaN, Double.NaN);
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Case> e : caseOf.entrySet()) {
            Case c = e.getValue();
            int[] mw = missingWarned.get(e.getKey());
            rows.add(row(c, e.getKey().substring(c.name().length() + 1), z.getOrDefault(e.getKey(), List.of()),
                    failedRuns.getOrDefault(c, 0) + mw[0], mw[1]));
        }
        String markdown = markdown(rows);
        table.write(markdown);
        Json.print(spec.commandLine().getOut(), new Report(seeds, table.seed, List.of(LOW, HIGH), rows, markdown));
    }

    /** The JSON of {@code bench calibration}: one row per case and estimator, and the band z must fall in. */
    record Report(int seeds, long firstSeed, List<Double> band, List<Row> rows, String table) {
    }

    private List<Case> selected() {
        if (only == null) {
            return CASES;
        }
        List<Case> out = new ArrayList<>();
        for (String name : only) {
            Case found = CASES.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(
                    () -> new UserException("--cases: no case named '" + name + "'; see --help"));
            out.add(found);
        }
        return out;
    }

    /** One {@code logz estimate --json} run in this process; null when it failed (exit 1). */
    private JsonNode estimate(Case c, long seed) {
        List<String> args = new ArrayList<>(List.of("estimate", "--json", "--seed", Long.toString(seed), "--backend", backend));
        args.addAll(c.args());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Progress.quietly(() -> Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err)));
        if (code == Main.USER_ERROR) {
            throw new UserException("case " + c.name() + ": " + err.toString().strip().replaceFirst("^logz: ", ""));
        }
        if (code == 1) {
            return null;
        }
        try {
            return new ObjectMapper().readTree(out.toString());
        } catch (IOException e) {
            throw new IllegalStateException("case " + c.name() + " printed no JSON: " + out, e);
        }
    }

    /**
     * The z-score of every estimator the run reports; estimators without a standard error are counted as
     * missing (first entry of {@code missingWarned}), runs with warnings as warned (second).
     */
    private static void record(Case c, JsonNode result, Map<String, List<Double>> z, Map<String, int[]> missingWarned,
                               Map<String, Case> caseOf) {
        double exact = result.get("exactLogZ").asDouble();
        boolean warned = result.has("warnings") && result.get("warnings").size() > 0;
        Map<String, JsonNode> estimates = new LinkedHashMap<>();
        if (result.has("estimates")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = result.get("estimates").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                estimates.put(e.getKey(), e.getValue());
            }
        } else {
            estimates.put(result.get("method").asText(), result);
        }
        for (Map.Entry<String, JsonNode> e : estimates.entrySet()) {
            if (e.getKey().endsWith("-bound")) {
                // Habeck's eq. 7 bounds are biased by construction: they bracket log Z, they do not estimate it
                continue;
            }
            String key = c.name() + "/" + e.getKey();
            caseOf.put(key, c);
            int[] fw = missingWarned.computeIfAbsent(key, k -> new int[2]);
            JsonNode se = e.getValue().get("stderr");
            if (se == null || !se.isNumber() || !(se.asDouble() > 0)) {
                fw[0]++;
                continue;
            }
            if (warned) {
                fw[1]++;
            }
            z.computeIfAbsent(key, k -> new ArrayList<>()).add((e.getValue().get("logZ").asDouble() - exact) / se.asDouble());
        }
    }

    private Row row(Case c, String estimator, List<Double> z, int failed, int warned) {
        double sum = 0;
        double squares = 0;
        int beyond = 0;
        for (double v : z) {
            sum += v;
            squares += v * v;
            beyond += Math.abs(v) > 3 ? 1 : 0;
        }
        int n = Math.max(1, z.size());
        double rms = Math.sqrt(squares / n);
        String model = c.args().contains("--model") ? c.args().get(c.args().indexOf("--model") + 1) : "demo";
        List<String> settings = new ArrayList<>(c.args());
        settings.removeAll(List.of("--model", model));
        int method = settings.indexOf("--method");
        settings.remove(method + 1);
        settings.remove(method);
        return new Row(model, estimator, String.join(" ", settings), z.size(), failed, warned, sum / n, rms, (double) beyond / n,
                z.size() > 1 && rms >= LOW && rms <= HIGH);
    }

    static String markdown(List<Row> rows) {
        StringBuilder s = new StringBuilder("| model | estimator | settings | seeds | failed | warned | mean z | RMS z "
                + "| beyond 3 | calibrated |\n|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            s.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %d | %+.2f | %.2f | %.0f%% | %s |%n", r.model(),
                    r.estimator(), r.settings(), r.seeds(), r.failed(), r.warned(), r.meanZ(), r.rmsZ(),
                    100 * r.beyond3(), r.calibrated() ? "yes" : "**no**"));
        }
        return s.toString();
    }
}
