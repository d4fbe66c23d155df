package org.logz.kernel;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;

/**
 * The Markov kernel of one tempered model on one backend (DESIGN §2): everything annealing and
 * tempering estimators ask of a model, {@code p_β(x) ∝ f_β(x)} for β ∈ [0, 1] with {@code f_0} the
 * base. States are the first {@code count} rows of a matrix of {@link #dimension()} columns; every
 * call leaves the other rows untouched.
 *
 * <p>One transition convention for every model: a call with {@code transitions = n} runs n
 * transitions, the t-th drawing its uniforms from Philox step {@code step + t}, so it consumes steps
 * {@code step .. step + n - 1}. Two backends given the same arguments draw the same uniforms.
 *
 * <p>State r of a call draws from the Philox streams of chain {@code firstChain + r} (the counter's particle word,
 * DESIGN §3), so a run's chains can be split into batches, on one machine or many, that draw exactly what the whole
 * batch would: rows {@code a .. a + m - 1} of a call with {@code firstChain = 0} equal rows {@code 0 .. m - 1} of the
 * same call with {@code firstChain = a}. The shorter overloads are chain 0's.
 *
 * <p>Kernels come from {@link Kernels}, which checks every argument (shapes, ranges, ownership)
 * before the provider's implementation runs; implementations may trust them.
 */
public interface TemperedKernel extends AutoCloseable {
    /** Values per particle state. */
    int dimension();

    /** Exact draw from the base {@code p_0}. Modifies {@code x}. Uses Philox step {@code step}. */
    void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain);

    /** {@link #sampleBase(ParticleMatrix, int, long, int, int)} from chain 0. */
    default void sampleBase(ParticleMatrix x, int count, long seed, int step) {
        sampleBase(x, count, seed, step, 0);
    }

    /** {@code out[r] = log f_β(x_r)} in float64. Modifies {@code out}. */
    void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out);

    /**
     * One annealing step: {@code logW += log f_to(x) - log f_from(x)}, then {@code transitions}
     * transitions that leave {@code p_to} invariant (in reverse order of their parts where the model's
     * transition is a composition and {@code to < from}, so that a reverse run is the time reversal of
     * a forward one). Modifies {@code logW} and, with transitions, {@code x}.
     */
    void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                int step, int firstChain);

    /** {@link #anneal(ParticleMatrix, int, double, double, ParticleVector, int, long, int, int)} from chain 0. */
    default void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                        long seed, int step) {
        anneal(x, count, from, to, logW, transitions, seed, step, 0);
    }

    /** {@code transitions} transitions, particle r at its inverse temperature of {@code betas}. Modifies {@code x}. */
    void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step, int firstChain);

    /** {@link #transition(ParticleMatrix, int, Betas, int, long, int, int)} from chain 0. */
    default void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step) {
        transition(x, count, betas, transitions, seed, step, 0);
    }

    /**
     * The path at every level of a ladder, for simulated tempering: for particle r and level k,
     * {@code logF[r·levels + k] = log f_{β_k}(x_r)} and {@code slope[r·levels + k] = d/dβ log f_β(x_r)}
     * at β_k. Modifies logF and slope.
     */
    void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                ParticleVector slope);

    /** Frees the model's device buffers; closing twice is harmless. */
    @Override
    void close();
}
