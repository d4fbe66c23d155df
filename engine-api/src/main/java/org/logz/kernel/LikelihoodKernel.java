package org.logz.kernel;

import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.model.Likelihood;

/**
 * Batched unbiased likelihood estimates of one {@link org.logz.model.LatentModel} on one backend, the inner loop of
 * AISEL (DESIGN §5): {@code M × N} inner draws per call, the part of a pseudo-marginal move worth a device.
 * Every backend draws the same numbers (the model's class comment gives the steps) and agrees with the others to
 * rounding.
 */
public interface LikelihoodKernel extends AutoCloseable {
    /**
     * {@code out[r] = log p̂_N(y | θ_r)} for r < count, θ_r the first d columns of row r of {@code theta}; particle r
     * draws from Philox {@code (seed, r, step)}. Modifies {@code out}.
     */
    void estimate(ParticleMatrix theta, int count, Likelihood.Estimated likelihood, long seed, int step,
                  ParticleVector out);

    /** Frees the model's device buffers; closing twice is harmless. */
    @Override
    void close();
}
