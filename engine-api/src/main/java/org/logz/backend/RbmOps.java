package org.logz.backend;

import org.logz.model.BaseRate;
import org.logz.model.Rbm;

/**
 * Batched RBM kernels bound to one model, whose parameters (W, a, b and the base-rate log-odds a0)
 * live on the backend (DESIGN §2, §5). Every method acts on particles {@code [0, count)} of the
 * given buffers and leaves the others untouched. Random draws use Philox with the run's
 * {@code seed} and the caller's {@code step} index (DESIGN §3), so two backends given the same
 * arguments draw the same uniforms.
 *
 * <p>The tempered path is {@code log f_β(x) = (1-β) a0ᵀx + β aᵀx + Σ_j softplus(β (b_j + xᵀW_:j))}.
 * A Gibbs sweep at β draws {@code h ~ σ(β (b + xW))}, then {@code x ~ σ((1-β) a0 + β (a + Wh))}.
 */
public interface RbmOps extends AutoCloseable {
    Rbm model();

    BaseRate baseRate();

    /**
     * Exact draw from the base distribution, {@code x_i ~ Bernoulli(σ(a0_i))}.
     * Modifies {@code x}. Uses stream {@code BASE} at {@code step}.
     */
    void sampleBase(ParticleMatrix x, int count, long seed, int step);

    /**
     * One annealing step: {@code logW += log f_to(x) - log f_from(x)}, then, when
     * {@code transition} is set, one Gibbs sweep at β = {@code to}. The two share the product
     * {@code xW}. Modifies {@code logW} and, with a transition, {@code x}. Uses streams
     * {@code HIDDEN} and {@code VISIBLE} at {@code step}.
     */
    void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, boolean transition,
                    long seed, int step);

    /**
     * {@code sweeps} Gibbs sweeps, particle r at its inverse temperature of {@code betas}. Modifies
     * {@code x}. Consumes step indices {@code step .. step + sweeps - 1}.
     */
    void gibbs(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step);

    /** {@code sweeps} Gibbs sweeps at one inverse temperature β for every particle. */
    default void gibbs(ParticleMatrix x, int count, double beta, int sweeps, long seed, int step) {
        gibbs(x, count, Betas.of(beta), sweeps, seed, step);
    }

    /**
     * The tempered path at every level of a ladder, for simulated tempering: for particle r and level
     * k, {@code logF[r·levels + k] = log f_{β_k}(x_r)} and
     * {@code slope[r·levels + k] = d/dβ log f_β(x_r)} at β_k, which is
     * {@code (a - a0)ᵀx + Σ_j u_j σ(β_k u_j)} with {@code u = b + xW}. Modifies logF and slope.
     */
    void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                ParticleVector slope);

    /** {@code out[r] = log f_β(x_r)} in float64. Modifies {@code out}. */
    void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out);

    /*
     * The sequential path (ARM paper §5, eq. 13-14; DESIGN §5): units enter in index order (the
     * caller permutes the model for other orders), particles hold x (N columns; units not yet entered
     * are 0) and g = b + xW (H columns). Rows are [first, first + count); Philox particle indices are
     * absolute row numbers.
     */

    /** Particles with no visible unit yet: {@code x = 0}, {@code g = b}. Modifies x and g. */
    void resetSequential(ParticleMatrix x, ParticleMatrix g, int first, int count);

    /** Recomputes {@code g = b + xW} (after states were loaded or copied in). Modifies g. */
    void preActivations(ParticleMatrix x, ParticleMatrix g, int first, int count);

    /**
     * The move step: {@code sweeps} Gibbs sweeps at β = 1 on visible units {@code [0, active)} and
     * all hidden units, {@code h ~ σ(g)}, {@code x_i ~ σ(a_i + W_i·h)} for i &lt; active, then
     * {@code g = b + xW}. Modifies x and g. Consumes steps {@code step .. step + sweeps - 1}.
     */
    void move(ParticleMatrix x, ParticleMatrix g, int first, int count, int active, int sweeps, long seed, int step);

    /**
     * Smoothing weight of adding visible unit {@code unit} (ARM eq. 14, in log space):
     * {@code logW += softplus(a_u + Σ_j [softplus(g_j + W_uj) - softplus(g_j)])}. Modifies logW
     * at the same rows.
     */
    void smooth(ParticleMatrix g, int first, int count, int unit, ParticleVector logW);

    /**
     * Augmentation: {@code x_u ~ Bernoulli(σ(a_u + Σ_j [softplus(g_j + W_uj) - softplus(g_j)]))},
     * then {@code g += x_u W_u:}. Modifies x and g. Uses stream {@code AUGMENT} at {@code step}.
     */
    void augment(ParticleMatrix x, ParticleMatrix g, int first, int count, int unit, long seed, int step);

    /** Frees the model's device buffers; closing twice is harmless. */
    @Override
    void close();
}
