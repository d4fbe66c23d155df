package org.logz.backend;

import org.logz.model.Ising;

/**
 * Batched kernels of the 2D Ising model (DESIGN §5), states as ±1 floats, one configuration per row,
 * site {@code (r, c)} at column {@code r·L + c}. Transitions are checkerboard heat-bath sweeps: all
 * sites of one colour ({@code (r + c) mod 2}) are drawn from {@code P(x = +1) = σ(2β h)}, h the sum of
 * their four neighbours, then the other colour. Each colour pass is reversible, so a sweep run in the
 * opposite colour order is the time reversal of a forward one: annealing down in β uses it, which
 * keeps Crooks' theorem (and BAR) exact. The uniform of site i in sweep s of a draw is word i mod 4 of
 * Philox block {@code (s·⌈L²/4⌉ + i/4, particle, step, ISING)}.
 */
public interface IsingOps extends AutoCloseable {
    Ising model();

    /** Uniform ±1 spins (the β = 0 distribution). Modifies x. Uses stream {@code ISING} at {@code step}. */
    void sampleBase(ParticleMatrix x, int count, long seed, int step);

    /**
     * {@code logW += (to - from)·S(x)}, {@code S = Σ_<ij> x_i x_j}, then {@code sweeps} sweeps at β = to,
     * in reverse colour order when {@code to < from}. Modifies logW and x. Uses one step index.
     */
    void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps, long seed,
                    int step);

    /** {@code sweeps} sweeps at the given temperatures, forward colour order. Modifies x. Uses one step index. */
    void sweep(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step);

    /** {@code out[r] = log f_β(x_r) = β·S(x_r)}, {@code S = Σ_<ij> x_i x_j}, in float64. Modifies out. */
    void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out);

    @Override
    void close();
}
