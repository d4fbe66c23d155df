package org.logz.estimate.aisel;

/**
 * How {@code --inner auto} chose N ({@link Aisel}): the variance {@code measuredVariance} of log p̂ with
 * {@code measuredDraws} draws at the pilot's posterior mean {@code center}, extrapolated as 1/N to the target.
 *
 * @param draws      N, the rule's choice capped at {@link org.logz.model.Likelihood#MAX_DRAWS}
 * @param wanted     the rule's choice before the cap (above {@code draws} where it was capped)
 * @param pilotMoves particle moves (and base draws) of the pilot run
 * @param pilotSteps the pilot's adaptive steps (at ρ = 0.5)
 * @param innerDraws inner draws spent by the pilot and the measurements
 */
public record InnerChoice(int draws, double wanted, double targetVariance, int measuredDraws, double measuredVariance,
                          double[] center, long pilotMoves, int pilotSteps, long innerDraws) {
    /** Whether the rule asked for more draws than {@link org.logz.model.Likelihood#MAX_DRAWS}. */
    public boolean capped() {
        return wanted > draws;
    }

    public InnerChoice {
        center = center.clone();
    }

    @Override
    public double[] center() {
        return center.clone();
    }
}
