package org.logz.readme;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.regex.Pattern;

/**
 * The README's commands at a budget the test suite can afford: the options that size a run (chains, steps, particles,
 * sweeps, replicates, seeds, ...) are capped, each at a value that still runs the method as the README describes it;
 * every other word stays as printed. A number above its cap becomes the cap, except in lists whose entries must stay
 * distinct (bench tempered's budgets, bench aisel's likelihoods), which shrink by one factor to meet it; logz
 * reproduce's {@code --scale} becomes a smoke run's. A
 * run that saves checkpoints saves them often, so that the capped run, over in a second, leaves one to resume.
 */
final class Budgets {
    private static final Map<String, Integer> CAPS = Map.ofEntries(Map.entry("--chains", 200),
            Map.entry("--reverse-chains", 200), Map.entry("--steps", 300), Map.entry("--particles", 50),
            Map.entry("--sweeps", 400), Map.entry("--round-sweeps", 20), Map.entry("--rounds", 2),
            Map.entry("--levels", 20), Map.entry("--ladders", 4), Map.entry("--replicates", 2),
            Map.entry("--seeds", 2), Map.entry("--repeats", 1), Map.entry("--budget", 400),
            Map.entry("--partitions", 2), Map.entry("--sweeps-per-step", 2), Map.entry("--mbar-samples", 500),
            // logz train: an MNIST RBM of 16 hidden units trains and tracks in seconds where 500 take minutes
            Map.entry("--hidden", 16), Map.entry("--epochs", 6), Map.entry("--track-chains", 50),
            Map.entry("--ais-steps", 1000),
            // lists: bench gpc's rm:R and ais-ep:CHAINS:STEPS (each number capped), bench tempered's sweeps and bench
            // aisel's N (scaled, since equal entries would be one)
            Map.entry("--runs", 4), Map.entry("--budgets", 400), Map.entry("--likelihoods", 8));
    private static final Set<String> SCALED = Set.of("--budgets", "--likelihoods");
    /** logz reproduce's fraction of a paper's settings: a smoke run (below 0.01) exercises every part in seconds. */
    private static final String SCALE = "--scale";
    private static final String SMOKE_SCALE = "0.001";
    /** A run saves its checkpoint this often (seconds), so that one exists when the capped run ends. */
    private static final String CHECKPOINT_EVERY = "0.05";
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])\\d+(?![\\w.])");

    private Budgets() {
    }

    /** {@code args} with every {@code --option=value} written as two words, as the checks read them. */
    static List<String> spaced(List<String> args) {
        List<String> out = new ArrayList<>();
        for (String word : args) {
            int eq = word.indexOf('=');
            if (word.startsWith("--") && eq > 2) {
                out.add(word.substring(0, eq));
                out.add(word.substring(eq + 1));
            } else {
                out.add(word);
            }
        }
        return out;
    }

    /** {@code args} with every sizing option capped, in both spellings ({@code --chains 1000}, {@code --chains=1000}). */
    static List<String> capped(List<String> args) {
        return withValues(args, (option, value) -> option.equals("--checkpoint-every") ? CHECKPOINT_EVERY
                : option.equals(SCALE) ? SMOKE_SCALE
                : CAPS.containsKey(option) ? cap(value, CAPS.get(option), SCALED.contains(option)) : value);
    }

    /**
     * What the command is apart from its budgets: {@code args} with the numbers in the sizing options' values blanked.
     * Two commands of one shape are one command at two budgets.
     */
    static List<String> shape(List<String> args) {
        return withValues(args, (option, value) -> option.equals(SCALE) ? "#"
                : CAPS.containsKey(option) ? NUMBER.matcher(value).replaceAll("#") : value);
    }

    /** {@code args} with each option's value (the word after it, or after its '=') replaced by {@code rewrite}'s. */
    private static List<String> withValues(List<String> args, BinaryOperator<String> rewrite) {
        List<String> out = new ArrayList<>(args);
        for (int i = 0; i < out.size(); i++) {
            String word = out.get(i);
            int eq = word.indexOf('=');
            if (word.startsWith("--") && (eq >= 0 || i + 1 < out.size())) {
                set(out, i, eq, rewrite.apply(eq < 0 ? word : word.substring(0, eq),
                        eq >= 0 ? word.substring(eq + 1) : out.get(i + 1)));
            }
        }
        return out;
    }

    /** Sets the value of the option at {@code i} (its word holds it after {@code eq} when eq >= 0, else the next). */
    private static void set(List<String> words, int i, int eq, String value) {
        if (eq >= 0) {
            words.set(i, words.get(i).substring(0, eq + 1) + value);
        } else {
            words.set(i + 1, value);
        }
    }

    private static String cap(String value, int cap, boolean scaled) {
        long largest = NUMBER.matcher(value).results().mapToLong(r -> Long.parseLong(r.group())).max().orElse(0);
        long factor = scaled ? Math.max(1, (largest + cap - 1) / cap) : 1;
        return NUMBER.matcher(value).replaceAll(r -> Long.toString(Math.max(1, Math.min(cap,
                Long.parseLong(r.group()) / factor))));
    }
}
