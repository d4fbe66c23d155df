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

import org.logz.UserException;

/**
 * The files a command line names (a model, a data set, a prior) travel with the job, because a cluster's executors do
 * not share the driver's disk. An argument names a file as a whole, after its first {@code =} ({@code --model=m.npz})
 * or after its first {@code :} ({@code gpc:set.npz}).
 */
final class ArgumentFiles {
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
        for (String arg : args) {
            for (String candidate : candidates(arg)) {
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
     * The arguments as a task runs them: a part that named a shipped file ({@code shipped}, from {@link #ship}) and
     * does not exist where the task runs is replaced by the local copy {@code local} gives for its name (Spark's
     * {@code SparkFiles.get}).
     */
    static List<String> resolve(List<String> args, Map<String, String> shipped, UnaryOperator<String> local) {
        List<String> here = new ArrayList<>(args.size());
        for (String arg : args) {
            String resolved = arg;
            for (String candidate : candidates(arg)) {
                String name = shipped.get(candidate);
                if (name != null && existing(candidate) == null) {
                    resolved = arg.substring(0, arg.length() - candidate.length()) + local.apply(name);
                    break;
                }
            }
            here.add(resolved);
        }
        return here;
    }

    /** The argument, what follows its first '=', what follows its first ':'. */
    private static List<String> candidates(String arg) {
        List<String> parts = new ArrayList<>(List.of(arg));
        for (char separator : new char[] {'=', ':'}) {
            int at = arg.indexOf(separator);
            if (at >= 0 && at + 1 < arg.length()) {
                parts.add(arg.substring(at + 1));
            }
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
