package org.logz.reproduce.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.cli.BackendOptions;
import org.logz.cli.Json;
import org.logz.cli.Progress;
import org.logz.problem.Reference;
import org.logz.reproduce.Claims;
import org.logz.reproduce.Reproduction;
import org.logz.reproduce.Reproductions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code logz reproduce NAME}: a paper's headline result, logz's numbers beside the paper's, and a verdict. */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = "Runs a paper's headline result at the paper's settings (or at a stated fraction of them) and "
                + "prints logz's numbers beside the paper's with a one-line verdict; --list names them.")
final class ReproduceCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "The result to reproduce (--list names them).")
    String name;

    @Option(names = "--list", description = "Name every reproduction, one a line, with its paper and its default scale.")
    boolean list;

    @Option(names = "--scale", paramLabel = "S", description = "Fraction of the paper's particles, chains or replicates, "
            + "in (0, 1] (each entry says which and keeps the least that still runs the method). Default: the entry's "
            + "(1 where the paper's settings fit this machine in minutes).")
    Double scale;

    @Option(names = "--seed", defaultValue = "1", description = "Philox key of the first run. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--model", paramLabel = "FILE", description = "The CD-25 MNIST RBM, for the entries on it. Default: "
            + Reproduction.Context.CD25 + " in the working directory.")
    Path model;

    @Option(names = "--reference", paramLabel = "LOGZ[:SE]", description = "What the entries on the CD-25 RBM measure "
            + "against, in place of the reference logz stores for the published file (451.24:0.015); needed for any other "
            + "file.")
    String reference;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            if (name != null || spec.commandLine().getParseResult().matchedOptions().size() > 1) {
                throw new UserException("--list takes no NAME and no other option");
            }
            for (Reproduction r : Reproductions.all()) {
                out.printf(Locale.ROOT, "%-14s %s (default scale %s; full scale: %s)%n", r.name(), r.summary(),
                        number(r.defaultScale()), r.fullCost());
            }
            out.flush();
            return;
        }
        if (name == null) {
            throw new UserException("a reproduction NAME is missing; one of " + String.join(", ",
                    Reproductions.all().stream().map(Reproduction::name).toList()) + " (logz reproduce --list)");
        }
        Reproduction reproduction = Reproductions.named(name);
        if (!reproduction.onCd25() && (model != null || reference != null)) {
            throw new UserException(name + " does not run on the CD-25 RBM: --model and --reference do not apply");
        }
        double s = scale == null ? reproduction.defaultScale() : scale;
        if (!(s > 0 && s <= 1)) {
            throw new UserException("--scale must lie in (0, 1], got " + number(s));
        }
        long started = System.nanoTime();
        Reproduction.Outcome outcome;
        try (ParticleBackend backend = backendOptions.open(); Progress progress = Progress.onTerminal("reproduce")) {
            outcome = reproduction.run(new Reproduction.Context(backend, s, seed, progress, model, reference));
        }
        double seconds = (System.nanoTime() - started) * 1e-9;
        Claims.Status status = s < Reproduction.Context.SMOKE ? Claims.Status.SMOKE : outcome.claims().status();
        if (json) {
            Json.print(out, new Report(reproduction.name(), reproduction.summary(), s, seed, outcome.settings(),
                    outcome.against(), outcome.lines(), status.toString(), outcome.claims().verdict(), seconds));
            return;
        }
        out.printf(Locale.ROOT, "reproduce  %s: %s%n", reproduction.name(), reproduction.summary());
        out.printf(Locale.ROOT, "settings   %s (scale %s, seed %d)%n%n", outcome.settings(), number(s), seed);
        table(out, outcome.lines());
        out.printf(Locale.ROOT, "%nverdict    %s: %s%n", status, outcome.claims().verdict());
        out.printf(Locale.ROOT, "time       %.1f s%n", seconds);
        out.flush();
    }

    /** The lines as three aligned columns: quantity, the paper's number, logz's. */
    private static void table(PrintWriter out, List<Reproduction.Line> lines) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"", "paper", "logz"});
        lines.forEach(l -> rows.add(new String[] {l.quantity(), l.paper(), l.logz()}));
        int[] width = new int[3];
        for (String[] row : rows) {
            for (int c = 0; c < 3; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            out.println(String.format(Locale.ROOT, "%-" + width[0] + "s  %" + width[1] + "s  %" + width[2] + "s", (Object[]) row)
                    .stripTrailing());
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    /**
     * The JSON of {@code logz reproduce NAME --json}: {@code status} is reproduced, differs, not all tested (some claim
     * needs a larger scale) or a smoke run (below scale 0.01, no reproduction whatever its numbers).
     */
    record Report(String name, String summary, double scale, long seed, String settings, Reference against,
                  List<Reproduction.Line> lines, String status, String verdict, double seconds) {
    }
}
