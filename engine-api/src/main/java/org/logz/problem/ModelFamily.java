package org.logz.problem;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.logz.options.Family;

/**
 * A kind of model that {@code --model} names (an RBM file, the Ising torus, a GP classifier, ...): how its specs
 * look, how it parses them, the model-specific options its models read and the method families they run.
 * Discovered through {@link java.util.ServiceLoader}: one line per family in
 * {@code META-INF/services/org.logz.problem.ModelFamily}; each family lives in its own package under
 * {@code org.logz.model}. A new model adds a family and its {@link Problem}; no existing file changes.
 */
public interface ModelFamily {
    /** The options parsing reads: the GP hyperparameters of {@code --log-ell} and {@code --log-sigma}. */
    record Options(OptionalDouble logEll, OptionalDouble logSigma) {
    }

    /** Where the family stands in the lists that messages build from the families (smaller first). */
    int order();

    /**
     * Whether {@code spec} (trimmed, lower case) names a model of this family, by its prefix; the
     * {@linkplain #fallback() fallback} family takes what no other family names.
     */
    boolean accepts(String spec);

    /** Whether this family takes the specs no other family accepts (files) and the absent spec (its demo). */
    default boolean fallback() {
        return false;
    }

    /** The model of {@code spec} (trimmed; null only for the fallback family), or a one-line error. */
    Problem parse(String spec, Options options);

    /** How a spec of this family is written, as the hint of an empty {@code --model} lists it (e.g. {@code ising:L=N}). */
    String syntax();

    /** Whether the hint of an empty {@code --model} lists {@link #syntax()}. */
    default boolean hinted() {
        return false;
    }

    /** How {@code logz estimate --help} describes this family's specs, one entry per kind, e.g. {@code ising:L=N}. */
    List<String> help();

    /** How {@code logz exact --help} says this family's exact log Z is found (e.g. {@code of ising:L=N by Kaufman's formula}), where it has one. */
    default Optional<String> exactHelp() {
        return Optional.empty();
    }

    /** What messages call the models of this family, e.g. {@code RBMs} in "--data applies to RBMs only". */
    String kind();

    /** The model-specific options (by their command-line names) that models of this family read. */
    Set<String> options();

    /** The method families its models run. */
    Set<Family> methods();

    /** What the sequential path adds one at a time (e.g. {@code an RBM's visible units}), where its models have one. */
    default Optional<String> sequentialUnits() {
        return Optional.empty();
    }
}
