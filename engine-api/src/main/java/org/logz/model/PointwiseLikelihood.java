package org.logz.model;

/**
 * A {@link LatentModel} whose exact likelihood factors over data points, {@code p(y | θ) = Π_l p(y_l | θ)}: a
 * mixture's observations, a GLMM's groups (each group's random effect integrated out). Data annealing (Habeck §6.4,
 * {@link org.logz.model.data.DataSequence}) enters the points one at a time.
 */
public interface PointwiseLikelihood extends LatentModel {
    /** The number of data points n. */
    int points();

    /** What the points are called in reports, e.g. {@code observations} or {@code groups}. */
    String pointName();

    /** {@code log p(y_l | θ)}, exact. */
    double logLikelihood(int point, double[] theta);
}
