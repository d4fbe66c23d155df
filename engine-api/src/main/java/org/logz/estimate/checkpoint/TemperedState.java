package org.logz.estimate.checkpoint;

import java.util.List;

/**
 * A tempered sampling run between two stages, or between two stretches of its final run: everything the rest of the
 * run reads. As for {@link AnnealingState}, the random numbers need no state of their own: every draw is Philox keyed
 * by the seed and counted by (chain, step, stream), so the run continues from {@code step}.
 *
 * @param fingerprint      what the run is ({@link Checkpointing#fingerprint}): a checkpoint resumes only the same run
 * @param initialLogZ      the annealing pass's log Ẑ per level
 * @param logZHat          log Ẑ per level as the initial rounds left it
 * @param rounds           initial rounds done
 * @param converged        whether the last round met the stopping rule
 * @param deviation        the last round's largest occupancy deviation (NaN before any)
 * @param done             iterations done, as progress counts them
 * @param transferredBytes bytes moved between host and device so far
 * @param seconds          the wall time spent so far
 * @param states           the chains' states, row-major (chains × dimension)
 * @param levels           each chain's level
 * @param step             the next Philox step
 * @param finalStretches   stretches of the final run done (0 before it starts)
 * @param statistics       the final run's sums so far, per block of chains ({@code TemperingSteps.statisticsLength}
 *                         values); empty before the final run
 * @param keptLogF         the final run's iterations kept for MBAR so far: each chains × K log densities
 * @param keptLevels       the levels of the kept states
 */
public record TemperedState(String fingerprint, double[] initialLogZ, double[] logZHat, int rounds, boolean converged,
                            double deviation, long done, long transferredBytes, double seconds, float[] states,
                            int[] levels, int step, int finalStretches, double[] statistics, List<double[]> keptLogF,
                            List<int[]> keptLevels) {
    public TemperedState {
        keptLogF = List.copyOf(keptLogF);
        keptLevels = List.copyOf(keptLevels);
    }
}
