package org.logz.problem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.Predicate;

import org.logz.base.UserException;
import org.logz.options.Family;

/** The model families found through {@link ServiceLoader}, in their {@link ModelFamily#order()}. */
public final class ModelFamilies {
    private static final List<ModelFamily> ALL = load();

    private ModelFamilies() {
    }

    private static List<ModelFamily> load() {
        List<ModelFamily> all = new ArrayList<>();
        ServiceLoader.load(ModelFamily.class).forEach(all::add);
        all.sort(Comparator.comparingInt(ModelFamily::order));
        return List.copyOf(all);
    }

    /** Every family, in order. */
    public static List<ModelFamily> all() {
        return ALL;
    }

    /**
     * The model of {@code spec}: the family whose prefix it carries, else the fallback family (files, and the demo when
     * {@code spec} is null). The GP hyperparameters are refused for families that do not read them, and an empty spec
     * with the hint of how specs look.
     */
    static Problem parse(String spec, ModelFamily.Options options) {
        String trimmed = spec == null ? null : spec.trim();
        String lower = trimmed == null ? null : trimmed.toLowerCase(Locale.ROOT);
        ModelFamily family = lower == null ? fallback()
                : ALL.stream().filter(f -> !f.fallback() && f.accepts(lower)).findFirst().orElseGet(ModelFamilies::fallback);
        if (!family.options().contains("--log-ell") && (options.logEll().isPresent() || options.logSigma().isPresent())) {
            throw new UserException("--log-ell and --log-sigma apply to " + readers("--log-ell") + " only");
        }
        if (trimmed != null && trimmed.isEmpty()) {
            throw new UserException("--model is empty; give " + list(ModelFamily::hinted, ModelFamily::syntax, ", ", " or "));
        }
        return family.parse(trimmed, options);
    }

    private static ModelFamily fallback() {
        return ALL.stream().filter(ModelFamily::fallback).findFirst()
                .orElseThrow(() -> new IllegalStateException("no model family takes files: check the ModelFamily services"));
    }

    /** What messages call the models that read {@code option}, e.g. {@code RBMs}. */
    public static String readers(String option) {
        return list(f -> f.options().contains(option), ModelFamily::kind, " or ", " or ");
    }

    /** What messages call the models that run the method family {@code family}. */
    public static String running(Family family) {
        return list(f -> f.methods().contains(family), ModelFamily::kind, " or ", " or ");
    }

    /** What the sequential paths of the families add one at a time, e.g. {@code an RBM's visible units or ...}. */
    static String sequentialUnits() {
        return list(f -> f.sequentialUnits().isPresent(), f -> f.sequentialUnits().orElseThrow(), ", ", " or ");
    }

    /** {@code name} of the families that pass {@code which}, in order: "a, b or c". */
    private static String list(Predicate<ModelFamily> which, Function<ModelFamily, String> name, String separator,
                               String last) {
        return joined(ALL.stream().filter(which).map(name).toList(), separator, last);
    }

    /** {@code names} as messages and help texts list them: "a, b or c" with {@code ", "} and {@code " or "}. */
    public static String joined(List<String> names, String separator, String last) {
        if (names.size() <= 1) {
            return String.join("", names);
        }
        return String.join(separator, names.subList(0, names.size() - 1)) + last + names.get(names.size() - 1);
    }
}
