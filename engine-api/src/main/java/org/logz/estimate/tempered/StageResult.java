package org.logz.estimate.tempered;

import java.util.List;

/**
 * What one part of a tempered sampling run ({@link TemperedPart}) returns from a stage, per block of
 * {@code BLOCK_MEMBERS · G} chains ({@link org.logz.backend.TemperingSteps#BLOCK_MEMBERS}) so that the parts' arrays,
 * concatenated in chain order, are the whole run's.
 *
 * @param backend          the backend the part ran on
 * @param description      the path's description
 * @param logZ0            the base's log normalizer
 * @param transitionsPerStep Markov transitions per chain and iteration
 * @param annealMax        after {@link TemperedStage.Anneal}: per block b and level k at {@code bK + k}, the largest
 *                         log weight; empty after other stages
 * @param annealSum        per block and level, {@code Σ exp(logW - max)} over the block's chains in chain order
 * @param statistics       after a round or the final run: the tempering sums per block, group and level (layout of
 *                         {@link org.logz.backend.Tempering#statistics()}); empty after the annealing pass
 * @param keptLogF         after the final run: the {@code chains × K} log densities of each iteration kept for MBAR
 * @param keptLevels       the levels the kept states were drawn at
 * @param visitedBound     after the final run: the path's bound from the part's states (NaN for none)
 * @param transferredBytes bytes the stage moved between host and device
 */
public record StageResult(String backend, String description, double logZ0, int transitionsPerStep, double[] annealMax, double[] annealSum,
                          double[] statistics, List<double[]> keptLogF, List<int[]> keptLevels, double visitedBound,
                          long transferredBytes) {
    public StageResult {
        keptLogF = List.copyOf(keptLogF);
        keptLevels = List.copyOf(keptLevels);
        if (annealMax.length != annealSum.length || keptLogF.size() != keptLevels.size()) {
            throw new IllegalArgumentException("a stage result with " + annealMax.length + " maxima and "
                    + annealSum.length + " sums, " + keptLogF.size() + " kept densities and " + keptLevels.size()
                    + " kept levels");
        }
    }
}
