package org.logz.backend;

/**
 * Optional capability: {@link ParticleBackend#temper} on the device, so that the level draws and the
 * tempering statistics of simulated tempering never leave it. Arguments arrive checked. A backend
 * without it runs {@link TemperingSteps} on downloaded buffers, with the same bits.
 */
public interface TemperingMoves {
    /** As {@link ParticleBackend#temper}. Modifies nextLevel, betas, probabilities and statistics. */
    void temper(Tempering tempering, int count, int levels, long seed, int step);
}
