package org.logz.estimate.aisel;

/**
 * How {@code --inner auto} chose N ({@link Aisel}): the variance {@code measuredVariance} of log p̂ with
 * {@code measuredDraws} draws at the pilot's posterior mean {@code center}, extrapolated as 1/N to the target.
 *
 * @param pilotMoves particle moves (and base draws) of the pilot run
 * @param innerDraws inner draws spent by the pilot and the measurements
 */
public record InnerChoice(int draws, double targetVariance, int measuredDraws, double measuredVariance, double[] center,
                          long pilotMoves, long innerDraws) {
    public InnerChoice {
        center = center.clone();
    }

    @Override
    public double[] center() {
        return center.clone();
    }
}
