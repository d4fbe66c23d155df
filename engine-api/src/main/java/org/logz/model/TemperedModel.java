package org.logz.model;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A model on a tempered path {@code p_β(x) ∝ f_β(x)}, β ∈ [0, 1], from a base with known normalizer
 * to the target (DESIGN §2): what estimators need to know about it besides its kernel, which a
 * backend supplies ({@link org.logz.kernel.Kernels#tempered}). Host-side facts only.
 */
public interface TemperedModel {
    /** What the path anneals between, for result files. */
    String description();

    /**
     * What identifies the path's content in a checkpoint: the parameters (hashed) and everything resolved from the
     * options (a base rate, a start), not the names they were given by. The default, {@code toString()}, suits models
     * that are records of numbers.
     */
    default String fingerprint() {
        return toString();
    }

    /**
     * {@link #description()} on a path that runs {@code transitionsPerStep} transitions per step.
     * Default: the description, and the transitions when there is more than one.
     */
    default String description(int transitionsPerStep) {
        return transitionsPerStep == 1 ? description()
                : description() + ", " + transitionsPerStep + " transitions per step";
    }

    /** Values per particle state. */
    int dimension();

    /** {@code log Z_0}, the exact log normalizer of {@code f_0}. */
    double logZ0();

    /**
     * Whether Z sums f over a discrete state space, so that {@code log Z ≥ log f(x)} for every state x
     * and the states a run visits bound its estimate from below. False for densities.
     */
    default boolean discrete() {
        return false;
    }

    /**
     * A lower bound on log Z from {@code count} states (row-major) that is better than their largest
     * {@code log f_1}, where the model has one (an RBM's hidden marginal); empty to use that maximum.
     */
    default OptionalDouble stateBound(float[] states, int count) {
        return OptionalDouble.empty();
    }

    /**
     * Backend bytes one chain occupies: its state and the per-chain scratch of the model's kernels (for
     * memory checks before a run). Default: the float32 state alone.
     */
    default long bytesPerChain() {
        return 4L * dimension();
    }

    /**
     * {@code count} exact samples from the target {@code p_1}, row-major, when the model is small
     * enough to sample exactly; empty otherwise.
     */
    default Optional<float[]> exactTargetSamples(int count, long seed) {
        return Optional.empty();
    }

    /** Where the base's rates came from, for reports (an RBM's base rate); null where the base is fixed. */
    default String baseRateSource() {
        return null;
    }

    /** Which base the path starts from, for reports (a GP classifier's prior or EP's q); null where there is one. */
    default String baseName() {
        return null;
    }

    /** Whether the tempered estimators (RTS, TI, MBAR), which move chains between levels, fit this model. */
    default boolean supportsTempering() {
        return true;
    }

    /**
     * Whether {@code log f_β(x)} is linear in β, so that its slope {@code d/dβ log f_β(x)} does not depend on
     * β (the geometric path {@code (1-β) log f_0 + β log f_1}). Estimators then need the slope at one β
     * only; otherwise they measure its change with β. Default false, which is always safe.
     */
    default boolean linearPath() {
        return false;
    }
}
