package org.logz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * engine-api's packages form layers: no package reaches, through the packages it uses, back to itself. A cycle makes
 * every package in it one unit that can only be read, tested and moved together (the review of 5211905 found all of
 * them in one). References are read from the sources, comments and strings removed: imports, qualified names and
 * javadoc links alike.
 */
class PackageCyclesTest {
    /** The one cycle kept on purpose: the estimators and their checkpoints, SMC and work readings share records. */
    private static final Set<String> ESTIMATORS = Set.of("org.logz.estimate", "org.logz.estimate.checkpoint",
            "org.logz.estimate.smc", "org.logz.estimate.work");

    private static final Pattern REFERENCE = Pattern.compile("\\borg\\.logz((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");

    @Test
    void packagesFormLayers() throws IOException {
        Map<String, Set<String>> uses = uses(Path.of("src/main/java"));
        assertTrue(uses.size() > 10, "read the packages of " + Path.of("src/main/java").toAbsolutePath());
        List<Set<String>> cycles = new ArrayList<>();
        for (Set<String> component : components(uses)) {
            if (component.size() > 1 && !component.equals(ESTIMATORS)) {
                cycles.add(component);
            }
        }
        assertEquals(List.of(), cycles, () -> "package cycles: " + describe(cycles, uses));
    }

    private static Map<String, Set<String>> uses(Path root) throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String text = Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ")
                        .replaceAll("\"(?:\\\\.|[^\"\\\\\\n])*\"", "\"\"");
                Matcher p = PACKAGE.matcher(text);
                if (!p.find()) {
                    continue;
                }
                Set<String> out = uses.computeIfAbsent(p.group(1), k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(text);
                while (m.find()) {
                    String used = "org.logz" + m.group(1);
                    if (!used.equals(p.group(1))) {
                        out.add(used);
                    }
                }
            }
        }
        return uses;
    }

    /** Tarjan's strongly connected components. */
    private static List<Set<String>> components(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : uses.keySet()) {
            if (!index.containsKey(v)) {
                visit(v, uses, index, low, stack, out);
            }
        }
        return out;
    }

    private static void visit(String v, Map<String, Set<String>> uses, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : uses.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                visit(w, uses, index, low, stack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            out.add(component);
        }
    }

    private static String describe(List<Set<String>> cycles, Map<String, Set<String>> uses) {
        StringBuilder s = new StringBuilder();
        for (Set<String> c : cycles) {
            s.append("\n").append(c).append(":");
            for (String p : c) {
                for (String q : uses.get(p)) {
                    if (c.contains(q)) {
                        s.append("\n  ").append(p).append(" -> ").append(q);
                    }
                }
            }
        }
        return s.toString();
    }
}
