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
 * @param statistics     blocks × G × 5K ({@link TemperingSteps#statisticsLength}), accumulated per block of
 *                       {@link TemperingSteps#BLOCK_MEMBERS} members of every group (chain r in group r mod G),
 *                       block b's group g at offset 5K(bG + g): {@code [0, K)} Σ_r q_rk (occupancy ĉ,
 *                       unnormalized), {@code [K, 2K)} Σ_r q_rk slope_rk (TI-RB), {@code [2K, 3K)} Σ over
 *                       chains at level k of slope_rk (TI), {@code [3K, 4K)} the number of those chains,
 *                       {@code [4K, 5K)} Σ over them of slope_rk² (the Friel correction of TI)
 * @param groups         G ≥ 1: independent groups of chains, whose separate sums give the estimators
 *                       an honest standard error (chains are independent, consecutive stretches of
 *                       one chain are not)
 * @param firstChain     the index in the whole run of row 0, whose Philox streams the rows draw from: a multiple of
 *                       {@code BLOCK_MEMBERS · G}, so that rows keep their group and block
 */
public record Tempering(ParticleVector logF, ParticleVector slope, ParticleVector logLevelWeight,
                        ParticleVector levelBetas, IndexVector level, IndexVector nextLevel, ParticleVector betas,
                        ParticleVector probabilities, ParticleVector statistics, int groups, int firstChain) {
    public Tempering {
        if (groups < 1) {
            throw new IllegalArgumentException("tempering statistics need at least one group of chains, got " + groups);
        }
        if (firstChain < 0 || firstChain % ((long) TemperingSteps.BLOCK_MEMBERS * groups) != 0) {
            throw new IllegalArgumentException("the rows of a tempering move start at a chain that is a multiple of "
                    + TemperingSteps.BLOCK_MEMBERS + " × " + groups + " groups, got " + firstChain);
        }
    }

    /** The move of a whole run: row r is chain r. */
    public Tempering(ParticleVector logF, ParticleVector slope, ParticleVector logLevelWeight, ParticleVector levelBetas,
                     IndexVector level, IndexVector nextLevel, ParticleVector betas, ParticleVector probabilities,
                     ParticleVector statistics, int groups) {
        this(logF, slope, logLevelWeight, levelBetas, level, nextLevel, betas, probabilities, statistics, groups, 0);
    }
}
