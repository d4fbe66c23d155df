package org.logz.backend;

import org.logz.model.GaussianToy;

/**
 * Batched kernels of the {@link GaussianToy}: one float per particle. Normal draws are Box-Muller
 * pairs from the 53-bit uniforms of Philox block {@code (0, particle, step, GAUSSIAN)}.
 */
public interface GaussianToyOps extends AutoCloseable {
    GaussianToy model();

    /** x ~ N(μ0, σ0²). Modifies x. */
    void sampleBase(ParticleMatrix x, int count, long seed, int step);

    /**
     * {@code logW += log f_to(x) - log f_from(x)}, then, if {@code transition}, x from the kernel at
     * β = to. Modifies logW and x.
     */
    void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, boolean transition,
                    long seed, int step);

    /** {@code sweeps} applications of the kernel at β. Consumes steps {@code step .. step + sweeps - 1}. */
    void transition(ParticleMatrix x, int count, double beta, int sweeps, long seed, int step);

    /** {@code out[r] = log f_β(x_r)} in float64. Modifies out. */
    void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out);

    @Override
    void close();
}
