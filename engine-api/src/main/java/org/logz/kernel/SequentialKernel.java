package org.logz.kernel;

import org.logz.backend.ParticleVector;

/**
 * The kernel of one sequential model on one backend (ARM paper §2, DESIGN §2): the path
 * {@code p_n(x_[n]) = f_n(x_[n]) / Z_n} adds one variable per iteration, n = 0 .. {@link #length()}.
 * A particle's state is a row of each matrix of a {@link ParticleState}: matrix 0 holds the variables
 * (variables not yet entered are 0), the others whatever the kernel keeps per particle to make its
 * steps cheap (pre-activations, a running precision). Calls act on rows {@code [first, first + count)};
 * Philox particle indices are absolute row numbers.
 *
 * <p>Transitions follow {@link TemperedKernel}'s convention: n transitions consume Philox steps
 * {@code step .. step + n - 1}. Kernels come from {@link Kernels}, which checks every argument.
 */
public interface SequentialKernel extends AutoCloseable {
    /** Number of variables N, i.e. of iterations. */
    int length();

    /** Columns of each state matrix; entry 0 is the model's {@link org.logz.model.SequentialModel#dimension()}. */
    int[] stateColumns();

    /** Particles with no variable yet (the single state of {@code p_0}). Modifies the state. */
    void reset(ParticleState state, int first, int count);

    /**
     * Particles drawn from {@code p_0} under Philox {@code (seed, particle, step)}: {@link #reset} where {@code p_0} is
     * one state (no variable yet); draws where it is a distribution (data annealing's prior). Modifies the state.
     */
    default void start(ParticleState state, int first, int count, long seed, int step) {
        reset(state, first, count);
    }

    /** Recomputes the derived matrices from the variables (after states were loaded or copied in). */
    void refresh(ParticleState state, int first, int count);

    /** {@code transitions} transitions that leave {@code p_active} invariant. Modifies the state. */
    void move(ParticleState state, int active, int first, int count, int transitions, long seed, int step);

    /**
     * The smooth step for adding variable {@code variable}: {@code logW += log W(x)}, W the ratio of
     * eq. (3) with the new variable summed out. Modifies {@code logW} at the same rows.
     */
    void smooth(ParticleState state, int variable, int first, int count, ParticleVector logW);

    /** The augment step: draws {@code variable} from {@code p_{variable+1}(x_variable | x_[variable])}. */
    void augment(ParticleState state, int variable, int first, int count, long seed, int step);

    /** {@code out[r] = log f_n(x_[n])} for rows {@code [0, count)}, n the variables entered so far. */
    void logDensity(ParticleState state, int count, ParticleVector out);

    @Override
    void close();
}
