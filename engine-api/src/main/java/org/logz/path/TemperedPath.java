package org.logz.path;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;

/**
 * A tempered path {@code p_β(x) ∝ p_0(x)^{1-β} f(x)^β}, β ∈ [0, 1], from a base distribution with
 * known normalizer to the target (DESIGN §2). Chains live on a backend; estimators drive them with
 * whole-batch calls and never see particle values. AIS, reverse AIS, BAR, TI and RTS are written
 * once against this interface.
 */
public interface TemperedPath extends AutoCloseable {
    /** What the path anneals between, for result files. */
    String description();

    /** The backend that holds this path's parameters and chains. */
    ParticleBackend backend();

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
     * Where the path is {@link #discrete()}: the largest {@code log f_1(x)} over the chains' current
     * states, which log Z is at least (one download of a value per chain); empty otherwise.
     */
    default OptionalDouble visitedBound(Chains chains) {
        if (!discrete()) {
            return OptionalDouble.empty();
        }
        try (ParticleVector logF = backend().vector(chains.count())) {
            chains.logDensity(1.0, logF);
            return Arrays.stream(backend().download(logF, chains.count())).max();
        }
    }

    /**
     * Backend bytes one chain occupies: its state and the per-chain scratch of the path's kernels (for
     * memory checks before a run). Default: the float32 state alone.
     */
    default long bytesPerChain() {
        return 4L * dimension();
    }

    /** Allocates {@code count} chains on the backend (states zero until sampled or loaded). */
    Chains chains(int count);

    /**
     * {@code count} exact samples from the target {@code p_1}, row-major, when the model is small
     * enough to sample exactly; empty otherwise.
     */
    default Optional<float[]> exactTargetSamples(int count, long seed) {
        return Optional.empty();
    }

    /** Frees the path's device buffers; closing twice is harmless. */
    @Override
    void close();

    /** A batch of chains on the backend. Methods act on all of them. */
    interface Chains extends AutoCloseable {
        int count();

        /** Exact draw from the base {@code p_0}. Uses Philox step {@code step}. */
        void sampleBase(long seed, int step);

        /** Replaces the states with {@code count × dimension} row-major values from the host. */
        void load(float[] states);

        /**
         * {@code logW += log f_to(x) - log f_from(x)}, then, if {@code transition}, one Markov
         * transition that leaves {@code p_to} invariant. Modifies {@code logW} and the states.
         */
        void anneal(double from, double to, ParticleVector logW, boolean transition, long seed, int step);

        /** {@code sweeps} transitions at β. Consumes steps {@code step .. step + sweeps - 1}. */
        void transition(double beta, int sweeps, long seed, int step);

        /** {@code out[r] = log f_β(x_r)}. Modifies {@code out}. */
        void logDensity(double beta, ParticleVector out);

        /** The states, row-major (a download: for diagnostics and tests). */
        float[] states();

        @Override
        void close();
    }
}
