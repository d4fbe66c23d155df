package org.logz.kernel;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;

/**
 * Batched exact point likelihoods of one {@link org.logz.model.PointwiseLikelihood} on one backend, the inner loop of
 * data annealing's moves (DESIGN §5): {@code count × (to - from)} terms per call. Backends agree to the rounding of
 * their exp and log; deterministic (each row sums its points in the order given).
 */
public interface PointLikelihoodKernel extends AutoCloseable {
    /**
     * {@code out[r] = Σ_{k=from}^{to-1} log p(y_{points[k]} | θ_r)} for r &lt; count (0 where from = to), θ_r the first
     * d columns of row r of {@code theta}, the terms added in k's order from +0. Modifies {@code out}.
     */
    void logLikelihoods(ParticleMatrix theta, int count, IndexVector points, int from, int to, ParticleVector out);

    /** Frees the model's device buffers; closing twice is harmless. */
    @Override
    void close();
}
