package org.logz.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.logz.cli.Main;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.RbmFiles;

/**
 * Every command the README prints runs here, in README order, as a user would paste it into a fresh clone, except for
 * two changes the suite needs: the budgets are capped ({@link Budgets}), and the files a clone lacks are stand-ins
 * written beside them ({@link #standIns()}). Where a command runs as printed on a model logz ships and the README
 * shows its output, the output must be what it prints, timings aside, and the warnings it shows must be the ones it
 * prints. A run resumed from a checkpoint must print the report of the run that saved it. A command shown again at
 * another budget (the same words but for its sizing options' values) runs once. Synopses (with placeholders such as
 * {@code --model M} or {@code [--seed S]}) are checked for options their command lacks. Besides the failures the
 * README shows, only the refusal of a command that names the cuda backend on a machine without a GPU is accepted
 * instead of exit 0, reported as a skip with its reason.
 */
class ReadmeCommandsTest {
    private static final Path README = Path.of(System.getProperty("logz.readme", "../README.md")).toAbsolutePath();
    /** What a clone lacks and the README names: the CD-25 RBM (the README's curl fetches it) and grid's a and b. */
    private static final List<String> STAND_INS = List.of("mnistvh_CD25.npz", "a.npz", "b.npz");
    private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z][A-Z0-9-]*(\\.npz)?|.*\\.\\.\\..*|\\[.*|.*\\|.*");
    /** Commands the README shows failing (the start of their words), and what their message says. */
    private static final Map<String, String> REFUSED = Map.of(
            // "stops with the same message": at a tenth of Habeck's budget the two directions' work does not meet
            "estimate --model potts:q=10,L=32 --method bar", "do not overlap");
    /** The shapes of the commands run so far: one shown again at another budget is not run twice. */
    private static final Set<List<String>> RUN = new HashSet<>();
    /** The report of each run that saved a checkpoint, by file. */
    private static final Map<String, List<String>> CHECKPOINTED = new HashMap<>();
    private static final Pattern TIMING = Pattern.compile("\\d+(\\.\\d+)? s\\b");

    /**
     * The stand-ins: the CD-25 model's 784 visible units (so that {@code --data mnist} fits) and 32 hidden ones, too
     * many to enumerate (so that the runs take the CD-25 model's path: unverified, consensus under --tolerance), small
     * weights; grid's a and b small RBMs. The commands' outcomes on them are checked, not their numbers.
     */
    @BeforeAll
    static void standIns() throws IOException {
        Files.deleteIfExists(Path.of("run.ckpt"));
        RbmFiles.write(Path.of(STAND_INS.get(0)), RandomRbm.create(784, 32, 0.1, 25), Optional.empty());
        RbmFiles.write(Path.of(STAND_INS.get(1)), RandomRbm.create(20, 10, 0.5, 1), Optional.empty());
        RbmFiles.write(Path.of(STAND_INS.get(2)), RandomRbm.create(20, 10, 0.5, 2), Optional.empty());
    }

    @TestFactory
    Stream<DynamicTest> everyCommand() throws IOException {
        List<Readme.Command> commands = Readme.commands(README);
        assertTrue(commands.size() >= 60, "the README's commands were not found: " + commands);
        return commands.stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> check(c)));
    }

    private static void check(Readme.Command c) throws Exception {
        List<String> words = c.words();
        if (words.size() > 1 && words.get(0).equals("java") && words.get(1).equals("-cp")) {
            runExample(c);
            return;
        }
        List<String> args = logzArguments(words);
        boolean repeat = !RUN.add(Budgets.shape(args));
        if (args.stream().anyMatch(w -> PLACEHOLDER.matcher(w).matches())) {
            optionsExist(c, args);
        } else if (!c.block() && args.stream().noneMatch(w -> w.startsWith("-"))) {
            Outcome o = logz(append(args, "--help"));
            assertEquals(0, o.code(), c + ": " + o.err());
        } else if (repeat && c.shown().isEmpty() && value(args, "--resume") == null) {
            optionsExist(c, args);
        } else {
            run(c, args);
        }
    }

    /** The words after {@code logz}, {@code ./logz} or {@code java -jar cli/target/logz-cli.jar}, up to a pipe. */
    private static List<String> logzArguments(List<String> words) {
        int from = words.get(0).equals("java") ? 3 : 1;
        int pipe = words.indexOf("|");
        return words.subList(from, pipe < 0 ? words.size() : pipe);
    }

    private static void run(Readme.Command c, List<String> args) {
        List<String> run = Budgets.capped(args);
        Outcome o = logz(run);
        String line = "logz " + String.join(" ", run);
        assumeFalse(o.code() == 2 && args.contains("cuda") && o.err().contains("backend 'cuda' is not available"),
                c + ": needs a GPU: " + o.err().strip());
        Optional<String> refusal = REFUSED.entrySet().stream()
                .filter(e -> String.join(" ", Budgets.spaced(args)).startsWith(e.getKey()))
                .map(Map.Entry::getValue).findFirst();
        if (refusal.isPresent()) {
            assertEquals(1, o.code(), line + " is shown failing\n" + o.err());
            assertTrue(o.err().contains(refusal.get()), line + "\n" + o.err());
            return;
        }
        assertEquals(0, o.code(), line + "\n" + o.err());
        assertTrue(!o.out().isBlank(), line + " printed nothing");
        resumes(run, o, line);
        List<String> shown = c.shown().stream().filter(l -> !l.startsWith("logz: ")).toList();
        boolean standIn = args.stream().anyMatch(w -> STAND_INS.stream().anyMatch(w::endsWith));
        if (run.equals(args) && !standIn && literal(shown)) {
            assertEquals(masked(shown), masked(o.out().lines().toList()), c + ": the output the README shows");
            warningsAsShown(c, o.err());
        }
    }

    /**
     * The warnings a command prints are the ones the README shows under it, in order: each line as shown, or, where the
     * README elides its end with "(...)", starting with what it shows.
     */
    private static void warningsAsShown(Readme.Command c, String err) {
        List<String> shown = c.shown().stream().filter(l -> l.startsWith("logz: warning")).toList();
        List<String> printed = err.lines().filter(l -> l.startsWith("logz: warning")).toList();
        assertEquals(shown.size(), printed.size(), c + ": the warnings the README shows\n" + err);
        for (int k = 0; k < shown.size(); k++) {
            String s = shown.get(k);
            boolean elided = s.endsWith(" (...)");
            String expected = masked(List.of(elided ? s.substring(0, s.length() - 6) : s)).get(0);
            String actual = masked(List.of(printed.get(k))).get(0);
            assertTrue(elided ? actual.startsWith(expected) : actual.equals(expected),
                    c + ": warning shown as\n" + s + "\nprinted as\n" + printed.get(k));
        }
    }

    /**
     * A run that saves a checkpoint is remembered by its report; one that resumes from it must print that report
     * (timings aside): the README promises the log Z, standard error and trace of the uninterrupted run, to the bit.
     */
    private static void resumes(List<String> run, Outcome o, String line) {
        List<String> report = masked(o.out().lines().toList());
        String resume = value(run, "--resume");
        if (resume != null) {
            assertEquals(CHECKPOINTED.get(resume), report, line + ": resumed");
        }
        String save = value(run, "--checkpoint");
        if (save != null) {
            assertTrue(Files.isRegularFile(Path.of(save)), line + " left no checkpoint");
            CHECKPOINTED.putIfAbsent(save, report);
        }
    }

    /** The value of {@code option} in {@code args} ({@code --option value} or {@code --option=value}), or null. */
    private static String value(List<String> args, String option) {
        List<String> spaced = Budgets.spaced(args);
        int at = spaced.indexOf(option);
        return at >= 0 && at + 1 < spaced.size() ? spaced.get(at + 1) : null;
    }

    /** A Java example ({@code java -cp CLASSPATH CLASS ARGS}): its class path is built, and it prints what is shown. */
    private static void runExample(Readme.Command c) throws Exception {
        List<String> words = c.words();
        for (String entry : words.get(2).split(":")) {
            Path p = README.resolveSibling(entry.endsWith("/*") ? entry.substring(0, entry.length() - 2) : entry);
            assertTrue(Files.isDirectory(p), c + ": " + p + " is not built");
        }
        Method main = Class.forName(words.get(3)).getMethod("main", String[].class);
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            main.invoke(null, (Object) words.subList(4, words.size()).toArray(String[]::new));
        } finally {
            System.setOut(stdout);
        }
        assertEquals(masked(c.shown()), masked(printed.toString(StandardCharsets.UTF_8).lines().toList()), c.toString());
    }

    /** A synopsis: every option it names is one its command takes (the command's --help lists it). */
    private static void optionsExist(Readme.Command c, List<String> args) {
        List<String> command = args.stream().takeWhile(w -> !w.startsWith("-") && !w.startsWith("[")).toList();
        Outcome help = logz(append(command, "--help"));
        assertEquals(0, help.code(), c + ": " + help.err());
        int end = args.indexOf("--");
        for (String word : args.subList(0, end < 0 ? args.size() : end)) {
            for (String part : word.split("\\|")) {
                String option = part.replaceAll("[\\[\\]]", "").split("=")[0];
                if (option.startsWith("--")) {
                    assertTrue(Pattern.compile("(?<![\\w-])" + Pattern.quote(option) + "(?![\\w-])")
                            .matcher(help.out()).find(), c + ": logz " + String.join(" ", command) + " has no " + option);
                }
            }
        }
    }

    /** Output shown in full: nothing elided with "...", and not a summary (of JSON, or indented under the command). */
    private static boolean literal(List<String> shown) {
        return !shown.isEmpty() && !shown.get(0).startsWith("{") && !shown.get(0).startsWith(" ")
                && shown.stream().noneMatch(l -> l.contains("..."));
    }

    /** Lines with their timings blanked: "0.43 s", and a table's last column when it is headed "seconds". */
    private static List<String> masked(List<String> lines) {
        boolean secondsColumn = !lines.isEmpty() && lines.get(0).strip().endsWith("seconds");
        return lines.stream().map(l -> secondsColumn ? l.strip().replaceAll("\\s+\\S+$", " <seconds>") : l)
                .map(l -> TIMING.matcher(l).replaceAll("<t> s")).toList();
    }

    private static List<String> append(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(Arrays.asList(more));
        return all;
    }

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome logz(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }
}
