package org.logz.path;

import org.logz.backend.ParticleVector;

/**
 * A tempered path whose chains can sit at different inverse temperatures and report their log
 * density on a whole ladder of them: what simulated tempering and its estimators (RTS, TI, MBAR)
 * need beyond annealing.
 */
public interface TemperingPath extends TemperedPath {
    @Override
    Chains chains(int count);

    /** Chains with per-chain temperatures. */
    interface Chains extends TemperedPath.Chains {
        /** {@code sweeps} transitions, chain r at {@code betas[r]}. Consumes steps {@code step ..}. */
        void transition(ParticleVector betas, int sweeps, long seed, int step);

        /**
         * {@code logF[r·levels + k] = log f_{β_k}(x_r)} and {@code slope[r·levels + k] = d/dβ log f_β(x_r)}
         * at β_k. Modifies logF and slope.
         */
        void levels(ParticleVector levelBetas, int levels, ParticleVector logF, ParticleVector slope);
    }
}
