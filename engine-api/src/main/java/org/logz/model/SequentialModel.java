package org.logz.model;

import java.util.Optional;

/**
 * A model on a sequential path {@code p_n(x_[n]) = f_n(x_[n]) / Z_n} that adds one variable per
 * iteration (ARM paper §2; DESIGN §2): what Resample-Move and ARM need to know about it besides its
 * kernel ({@link org.logz.kernel.Kernels#sequential}). Host-side facts only.
 */
public interface SequentialModel {
    String description();

    /** What one iteration adds, in messages: a visible {@code unit} of an RBM, a {@code case} of a classifier. */
    default String variableName() {
        return "unit";
    }

    /** Number of variables N, i.e. of iterations. */
    int length();

    /**
     * Columns of a particle's variables: {@link #length()} where each iteration adds a variable; the fixed dimension of
     * the parameters where each iteration adds a data point instead (data annealing, Habeck §6.4).
     */
    default int dimension() {
        return length();
    }

    /** {@code log Z_0}, exact. */
    double logZ0();

    /** Whether Z sums f over a discrete state space, so that {@code log Z ≥ log f(x)} for every full state. */
    default boolean discrete() {
        return false;
    }

    /** Backend bytes one particle occupies (states and per-particle scratch), for memory checks. */
    long bytesPerParticle();

    /**
     * Example states (rows of {@link #dimension()} values, in the path's variable order) that reseeding
     * starts fresh chains from; empty when the model has none, and then it cannot reseed.
     */
    default Optional<float[]> examples() {
        return Optional.empty();
    }

    /** Whether {@link #examples()} has any, without building them (they can be a whole data set). */
    default boolean hasExamples() {
        return examples().isPresent();
    }
}
