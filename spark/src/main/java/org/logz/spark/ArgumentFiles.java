package org.logz.spark;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.logz.base.UserException;

/**
 * The input files a command line names ({@code --model}, {@code --data}, {@code --prior}) travel with the job, because
 * a cluster's executors do not share the driver's disk. Every task reads Spark's copy (fetched once per executor), not
 * the driver's path, so a file rewritten on the driver while the tasks run does not reach them. An option's value names a file as a whole or after its first
 * {@code :} ({@code gpc:set.npz}); {@code --model=m.npz} is read as {@code --model m.npz}.
 */
final class ArgumentFiles {
    /** The options whose values are input files. */
    private static final List<String> INPUTS = List.of("--model", "--data", "--prior");

    private ArgumentFiles() {
    }

    /**
     * Hands every existing file the arguments name to {@code ship} (Spark's {@code addFile}) and returns each such
     * part of an argument, as written, with the name the file travels under. Two files of one name in different
     * directories are refused: an executor finds shipped files by name.
     */
    static Map<String, String> ship(List<String> args, Consumer<String> ship) {
        Map<String, Path> files = new LinkedHashMap<>();
        Map<String, String> named = new LinkedHashMap<>();
        for (String value : inputValues(args)) {
            for (String candidate : candidates(value)) {
                Path file = existing(candidate);
                if (file != null) {
                    Path absolute = file.toAbsolutePath().normalize();
                    String name = absolute.getFileName().toString();
                    Path before = files.putIfAbsent(name, absolute);
                    if (before != null && !before.equals(absolute)) {
                        throw new UserException("--spark ships the files the command names by their names, and two are "
                                + "named " + name + ": " + before + " and " + absolute + "; rename one");
                    }
                    named.put(candidate, name);
                }
            }
        }
        files.values().forEach(p -> ship.accept(p.toString()));
        return named;
    }

    /**
     * The arguments as a task runs them: each input option's value that named a shipped file ({@code shipped}, from
     * {@link #ship}) names instead the copy {@code local} gives for its name (Spark's {@code SparkFiles.get}), with
     * {@code --model=m.npz} written {@code --model m.npz}.
     */
    static List<String> resolve(List<String> args, Map<String, String> shipped, UnaryOperator<String> local) {
        List<String> here = new ArrayList<>(args.size() + INPUTS.size());
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String option = inputOption(arg);
            if (option == null) {
                here.add(arg);
                continue;
            }
            String value = arg.equals(option) ? (i + 1 < args.size() ? args.get(++i) : null) : arg.substring(option.length() + 1);
            here.add(option);
            if (value != null) {
                here.add(copyOf(value, shipped, local));
            }
        }
        return here;
    }

    private static String copyOf(String value, Map<String, String> shipped, UnaryOperator<String> local) {
        for (String candidate : candidates(value)) {
            String name = shipped.get(candidate);
            if (name != null) {
                return value.substring(0, value.length() - candidate.length()) + local.apply(name);
            }
        }
        return value;
    }

    /** The input option an argument gives (alone, or as {@code --model=...}), or null. */
    private static String inputOption(String arg) {
        for (String option : INPUTS) {
            if (arg.equals(option) || arg.startsWith(option + "=")) {
                return option;
            }
        }
        return null;
    }

    /** The values of the input options. */
    private static List<String> inputValues(List<String> args) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String option = inputOption(args.get(i));
            if (option != null && args.get(i).equals(option)) {
                if (i + 1 < args.size()) {
                    values.add(args.get(++i));
                }
            } else if (option != null) {
                values.add(args.get(i).substring(option.length() + 1));
            }
        }
        return values;
    }

    /** The value, and what follows its first ':' (a model kind's file). */
    private static List<String> candidates(String value) {
        List<String> parts = new ArrayList<>(List.of(value));
        int at = value.indexOf(':');
        if (at >= 0 && at + 1 < value.length()) {
            parts.add(value.substring(at + 1));
        }
        return parts;
    }

    private static Path existing(String candidate) {
        try {
            Path p = Path.of(candidate);
            return Files.isRegularFile(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
