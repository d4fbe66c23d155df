package org.logz.backend;

/**
 * The device buffers of one simulated-tempering move ({@link ParticleBackend#temper}), for
 * {@code count} chains and K levels.
 *
 * @param logF           count × K, in: {@code log f_{β_k}(x_r)}
 * @param slope          count × K, in: {@code d/dβ log f_β(x_r)} at β_k
 * @param logLevelWeight K, in: {@code log r_k - log Ẑ_k}
 * @param levelBetas     K, in: the inverse temperatures
 * @param level          count, in: the level each chain's state was drawn at
 * @param nextLevel      count, out: the newly drawn level
 * @param betas          count, out: the inverse temperature of the new level
 * @param probabilities  count × K, out: {@code q(β_k | x_r)}
 * @param statistics     G × 4K, accumulated per group of chains (chain r in group r mod G), group g
 *                       at offset 4Kg: {@code [0, K)} Σ_r q_rk (occupancy ĉ, unnormalized),
 *                       {@code [K, 2K)} Σ_r q_rk slope_rk (TI-RB), {@code [2K, 3K)} Σ over chains at
 *                       level k of slope_rk (TI), {@code [3K, 4K)} the number of those chains
 * @param groups         G ≥ 1: independent groups of chains, whose separate sums give the estimators
 *                       an honest standard error (chains are independent, consecutive stretches of
 *                       one chain are not)
 */
public record Tempering(ParticleVector logF, ParticleVector slope, ParticleVector logLevelWeight,
                        ParticleVector levelBetas, IndexVector level, IndexVector nextLevel, ParticleVector betas,
                        ParticleVector probabilities, ParticleVector statistics, int groups) {
    public Tempering {
        if (groups < 1) {
            throw new IllegalArgumentException("tempering statistics need at least one group of chains, got " + groups);
        }
    }
}
