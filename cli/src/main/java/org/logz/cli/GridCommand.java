package org.logz.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.logz.api.Estimation;
import org.logz.base.UserException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code logz grid}: the evidence of many models, or of one model under many settings: {@code logz estimate} at every
 * point of the product of the {@code --vary} values (model files, GP hyperparameters, chains, seeds, ...), each point
 * the run {@code logz estimate} would make alone, in this process one after another or as Spark tasks. Every point is
 * checked before any runs, so a bad value is refused before hours of work; a point that fails while running is
 * reported in its row and the others still run.
 */
@Command(name = "grid", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run 'logz estimate' at every point of a grid (models, hyperparameters, settings) and tabulate "
                + "log Z: logz grid --vary --log-ell=-1,0,1 --vary --log-sigma=0,1 -- --model gpc:digits35 --chains 500")
final class GridCommand implements Callable<Integer> {
    /** The most points one grid may have: beyond it a typo is likelier than a plan. */
    static final int MAX_POINTS = 10_000;

    /** Options the grid sets itself or that would make the points write over each other. */
    private static final List<String> REFUSED = List.of("--json", "--spark", "--partitions", "--work", "--reverse-work",
            "--plot", "--checkpoint", "--checkpoint-every", "--resume", "--help", "-h", "--version", "-V");

    /** Options whose values contain commas: one value per {@code --vary}. */
    private static final List<String> WHOLE_VALUES = List.of("--model", "--schedule", "--order", "--inner");

    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = "--vary", required = true, paramLabel = "OPTION=V1,V2,...",
            description = "An estimate option and its values (split at commas, except --model, --schedule, --order and "
                    + "--inner, whose values contain commas: one value per --vary). Repeat for more options, or for more "
                    + "values of one option; the grid is the product of the options' values.")
    List<String> vary;

    @Option(names = "--spark", paramLabel = "MASTER",
            description = "Run the points as Apache Spark tasks on MASTER (local[4], spark://host:7077, ...). Needs the "
                    + "logz-spark module.")
    String sparkMaster;

    @Option(names = "--partitions", paramLabel = "P",
            description = "--spark: tasks to split the points into (at most one per point). Default: the cluster's "
                    + "default parallelism.")
    Integer partitions;

    @Option(names = "--json", description = "Print every point's values and its whole estimate report as JSON.")
    boolean json;

    @Parameters(paramLabel = "ESTIMATE-OPTIONS", arity = "0..*",
            description = "The options of 'logz estimate' shared by every point (after --).")
    List<String> options = new ArrayList<>();

    /** One point: the values it gives the varied options, and its whole estimate command line. */
    record Point(Map<String, String> values, List<String> args) {
    }

    @Override
    public Integer call() {
        if (sparkMaster == null && partitions != null) {
            throw new UserException("--partitions splits the points of a --spark grid; add --spark MASTER");
        }
        if (partitions != null && (partitions < 1 || partitions > MAX_POINTS)) {
            throw new UserException("--partitions must be between 1 and " + MAX_POINTS + ", got " + partitions);
        }
        List<Point> points = points(axes());
        for (Point p : points) {
            check(p);
        }
        List<Distributor.CommandRun> runs;
        int tasks = 0;
        if (sparkMaster == null) {
            runs = new ArrayList<>();
            for (Point p : points) {
                runs.add(GridRuns.run(p.args(), 0));
            }
        } else {
            if (sparkMaster.isBlank()) {
                throw new UserException("--spark needs a master URL: local[4], spark://host:7077, ...");
            }
            Distributor.Commands done = Distributor.installed().commands(sparkMaster, partitions,
                    points.stream().map(Point::args).toList());
            runs = done.runs();
            tasks = done.tasks();
        }
        return report(points, runs, tasks);
    }

    /** The varied options in order, each with its values. */
    private Map<String, List<String>> axes() {
        Map<String, List<String>> axes = new LinkedHashMap<>();
        CommandSpec estimate = Main.commandLine().getSubcommands().get("estimate").getCommandSpec();
        for (String entry : vary) {
            int eq = entry.indexOf('=');
            if (!entry.startsWith("--") || eq < 3 || eq == entry.length() - 1) {
                throw new UserException("--vary " + entry + ": give OPTION=V1,V2,... (e.g. --vary --log-ell=-1,0,1)");
            }
            String option = entry.substring(0, eq);
            OptionSpec o = estimate.findOption(option);
            if (o == null || o.arity().max() < 1) {
                throw new UserException("--vary " + option + ": not an option of 'logz estimate' that takes a value");
            }
            String name = o.longestName();
            if (REFUSED.contains(name)) {
                throw new UserException("--vary " + name + ": the grid sets it or its points would write over each "
                        + "other");
            }
            for (String given : options) {
                if (List.of(o.names()).contains(given) || given.startsWith(name + "=")) {
                    throw new UserException(name + " is both varied and given with the shared options; drop one");
                }
            }
            String values = entry.substring(eq + 1);
            List<String> list = axes.computeIfAbsent(name, n -> new ArrayList<>());
            for (String v : WHOLE_VALUES.contains(name) ? List.of(values) : List.of(values.split(",", -1))) {
                if (v.isBlank()) {
                    throw new UserException("--vary " + entry + ": an empty value");
                }
                if (list.contains(v.trim())) {
                    throw new UserException("--vary " + name + ": the value " + v.trim() + " twice");
                }
                list.add(v.trim());
            }
        }
        for (String given : options) {
            for (String refused : REFUSED) {
                if (given.equals(refused) || given.startsWith(refused + "=")) {
                    throw new UserException(refused + " does not apply to the points of a grid" + whyRefused(refused));
                }
            }
        }
        return axes;
    }

    /** The product of the axes, the first option's values varying slowest. */
    private List<Point> points(Map<String, List<String>> axes) {
        long size = 1;
        for (List<String> values : axes.values()) {
            size *= values.size();
            if (size > MAX_POINTS) {
                throw new UserException("the grid has more than " + MAX_POINTS + " points; vary fewer values");
            }
        }
        List<Map<String, String>> combos = new ArrayList<>(List.of(new LinkedHashMap<>()));
        for (Map.Entry<String, List<String>> axis : axes.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> combo : combos) {
                for (String value : axis.getValue()) {
                    Map<String, String> extended = new LinkedHashMap<>(combo);
                    extended.put(axis.getKey(), value);
                    next.add(extended);
                }
            }
            combos = next;
        }
        List<Point> points = new ArrayList<>();
        for (Map<String, String> values : combos) {
            List<String> args = new ArrayList<>(List.of("estimate"));
            args.addAll(options);
            values.forEach((option, value) -> {
                args.add(option);
                args.add(value);
            });
            args.add("--json");
            points.add(new Point(values, args));
        }
        return points;
    }

    /** A point's command line as 'logz estimate' would refuse it: options, model and the method's checks. */
    private static void check(Point p) {
        try {
            EstimateCommand c = TaskReplicates.command(p.args());
            Estimation e = c.estimation(c.parseProblem());
            e.check();
        } catch (UserException | ParameterException e) {
            throw new UserException("grid point " + label(p.values()) + ": " + e.getMessage());
        }
    }

    private static String label(Map<String, String> values) {
        List<String> parts = new ArrayList<>();
        values.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(" ", parts);
    }

    /**
     * The table (or JSON) of every point; exit 2 or 1 when a point failed (the worst), 3 when one ended in 3
     * ({@code --strict} and warnings), else 0.
     */
    private int report(List<Point> points, List<Distributor.CommandRun> runs, int tasks) {
        PrintWriter out = spec.commandLine().getOut();
        int worst = 0;
        List<JsonNode> reports = new ArrayList<>();
        for (Distributor.CommandRun run : runs) {
            JsonNode r = reportOf(run);
            // a point that printed no report did not run, whatever its exit code says
            worst = worse(worst, r == null && run.exit() == 0 ? 1 : run.exit());
            reports.add(r);
        }
        if (json) {
            ObjectNode root = JSON.createObjectNode();
            if (sparkMaster != null) {
                root.putObject("spark").put("master", sparkMaster).put("tasks", tasks);
            }
            ArrayNode array = root.putArray("points");
            for (int i = 0; i < points.size(); i++) {
                ObjectNode point = array.addObject();
                ObjectNode values = point.putObject("values");
                points.get(i).values().forEach(values::put);
                point.put("exit", runs.get(i).exit());
                if (reports.get(i) != null) {
                    point.set("report", reports.get(i));
                } else {
                    point.put("error", firstLine(runs.get(i).err()));
                }
            }
            out.println(root.toPrettyString());
        } else {
            table(out, points, runs, reports, tasks);
        }
        out.flush();
        return worst;
    }

    /** The point's JSON report, or null where it printed none (it failed). */
    private static JsonNode reportOf(Distributor.CommandRun run) {
        try {
            JsonNode r = run.out().isBlank() ? null : JSON.readTree(run.out());
            return r != null && r.isObject() && r.has("logZ") ? r : null;
        } catch (IOException e) {
            return null;
        }
    }

    private void table(PrintWriter out, List<Point> points, List<Distributor.CommandRun> runs, List<JsonNode> reports,
                       int tasks) {
        List<String> header = new ArrayList<>(points.get(0).values().keySet());
        out.printf(Locale.ROOT, "grid     %d point%s%s%n", points.size(), points.size() == 1 ? "" : "s",
                sparkMaster == null ? "" : ", " + tasks + (tasks == 1 ? " task" : " tasks") + " on " + sparkMaster);
        StringBuilder head = new StringBuilder("|");
        StringBuilder rule = new StringBuilder("|");
        for (String option : header) {
            head.append(' ').append(option).append(" |");
            rule.append(" --- |");
        }
        head.append(" log Z | ± | exact | warnings |");
        rule.append(" ---: | ---: | ---: | --- |");
        out.println(head);
        out.println(rule);
        int best = -1;
        for (int i = 0; i < points.size(); i++) {
            StringBuilder row = new StringBuilder("|");
            points.get(i).values().values().forEach(v -> row.append(' ').append(v).append(" |"));
            JsonNode r = reports.get(i);
            if (r == null) {
                row.append(" failed (exit ").append(runs.get(i).exit()).append("): ")
                        .append(firstLine(runs.get(i).err()).replace('|', '/')).append(" | | | |");
            } else {
                row.append(String.format(Locale.ROOT, " %.4f | %s | %s | %s |", r.get("logZ").doubleValue(),
                        number(r.get("stderr")), number(r.get("exactLogZ")), warnings(r.get("warnings"))));
                if (best < 0 || r.get("logZ").doubleValue() > reports.get(best).get("logZ").doubleValue()) {
                    best = i;
                }
            }
            out.println(row);
        }
        if (best >= 0 && points.size() > 1) {
            out.printf(Locale.ROOT, "largest  %s: log Z %.4f%n", label(points.get(best).values()),
                    reports.get(best).get("logZ").doubleValue());
        }
    }

    private static String number(JsonNode node) {
        return node == null || node.isNull() ? "" : String.format(Locale.ROOT, "%.4f", node.doubleValue());
    }

    private static String warnings(JsonNode list) {
        List<String> codes = new ArrayList<>();
        if (list != null) {
            list.forEach(w -> codes.add(w.get("code").textValue()));
        }
        return String.join(", ", codes);
    }

    /** The worse of two exit codes: a failed point (2, 1) over warnings under --strict (3) over success. */
    private static int worse(int a, int b) {
        int rankA = a == 3 ? 1 : a == 0 ? 0 : 1 + a;
        int rankB = b == 3 ? 1 : b == 0 ? 0 : 1 + b;
        return rankA >= rankB ? a : b;
    }

    private static String firstLine(String text) {
        String t = text.strip();
        int end = t.indexOf('\n');
        return end < 0 ? t : t.substring(0, end);
    }

    /** Why a point's options cannot hold {@code option}, for the message. */
    private static String whyRefused(String option) {
        return switch (option) {
            case "--json", "--spark", "--partitions" -> "; give it to 'logz grid' before --";
            case "--resume" -> " (each point is a run of its own)";
            case "--help", "-h", "--version", "-V" -> " (see 'logz grid --help')";
            default -> " (they would write over each other)";
        };
    }
}
