package org.logz.model;

/**
 * The lag of annealed chains behind the path at one step (Habeck 2017, Fig. 1B): the marginal q_k of the chains' states
 * after step k, against the equilibrium p_k of the step's β. Where the kernels mix slowly q_k trails p_k, and the
 * divergence between them is what the weights must correct.
 *
 * @param step            the step k (0: the start)
 * @param beta            β_k
 * @param mean            the mean of q_k
 * @param sd              the standard deviation of q_k
 * @param equilibriumMean the mean of p_k
 * @param equilibriumSd   the standard deviation of p_k
 * @param divergence      KL(q_k ‖ p_k)
 * @param energy          the mean energy {@code -d log f/dβ} under q_k, which the annealing trace's chain average
 *                        estimates
 */
public record AnnealedMarginal(int step, double beta, double mean, double sd, double equilibriumMean, double equilibriumSd,
                               double divergence, double energy) {
}
