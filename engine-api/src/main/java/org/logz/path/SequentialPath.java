package org.logz.path;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;

/**
 * A sequential path {@code p_n(x_[n]) = f_n(x_[n]) / Z_n} that adds one variable per iteration
 * (ARM paper §2; DESIGN §2), {@code n = 0 .. length}: {@code p_0} has no variable and a known
 * normalizer, {@code p_length} is the target. Resample-Move and ARM are written once against it.
 * Particles live on a backend; rows are {@code [first, first + count)}.
 */
public interface SequentialPath extends AutoCloseable {
    String description();

    ParticleBackend backend();

    /** Number of variables N, i.e. of iterations. */
    int length();

    /** {@code log Z_0}, exact. */
    double logZ0();

    /**
     * Whether the target's Z sums f over a discrete state space, so that {@code log Z ≥ log f(x)} for
     * every full state (see {@link Particles#logDensity}).
     */
    default boolean discrete() {
        return false;
    }

    /** Whether {@link Particles#reseed} can draw fresh particles (needs data to start chains from). */
    boolean canReseed();

    /** Backend bytes one particle occupies (states and per-particle scratch), for memory checks. */
    long bytesPerParticle();

    /**
     * Allocates storage for {@code capacity} particles, plus room to rearrange up to
     * {@code placeCapacity} of them at once ({@link Particles#place}); nothing is reallocated later.
     */
    Particles particles(int capacity, int placeCapacity);

    @Override
    void close();

    /** Particle storage on the backend. */
    interface Particles extends AutoCloseable {
        int capacity();

        /** Particles with no variable yet (the single state of {@code p_0}). */
        void reset(int first, int count);

        /**
         * The move step: {@code sweeps} transitions that leave {@code p_active} invariant. Consumes
         * steps {@code step .. step + sweeps - 1}.
         */
        void move(int active, int first, int count, int sweeps, long seed, int step);

        /**
         * The smooth step for adding variable {@code unit}: {@code logW += log W(x)}, W the ratio of
         * eq. (3) with the new variable summed out.
         */
        void smooth(int unit, int first, int count, ParticleVector logW);

        /**
         * {@code out[r] = log f_n(x_[n])} for rows {@code [0, count)}, n the variables entered so far: the
         * unnormalized log density of the path at the particles' current length. Modifies {@code out}.
         */
        void logDensity(int count, ParticleVector out);

        /** The augment step: draws variable {@code unit} from {@code p_{unit+1}(x_unit | x_[unit])}. */
        void augment(int unit, int first, int count, long seed, int step);

        /** Copies rows {@code [from, from + count)} to rows starting at {@code to} (non-overlapping). */
        void copy(int from, int to, int count);

        /** Rows {@code [to, to + count)} become rows {@code sources[0, count)}; any overlap is allowed. */
        void place(IndexVector sources, int count, int to);

        /**
         * Fresh particles of {@code p_active} in rows {@code [first, first + count)}: chains started
         * from random data examples restricted to the first {@code active} variables, run
         * {@code sweeps} move transitions. Consumes steps {@code step .. step + sweeps}.
         *
         * @throws IllegalStateException when the path has no data ({@link #canReseed()})
         */
        void reseed(int active, int first, int count, int sweeps, long seed, int step);

        /** The states of rows {@code [first, first + count)}, row-major (a download, for tests). */
        float[] states(int first, int count);

        @Override
        void close();
    }
}
