package org.logz.model;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A model with latent variables whose likelihood {@code p(y | θ)} is an integral over them, the target of AISEL
 * (Tran et al., DESIGN §5): parameters θ ∈ R^d with independent normal priors, and a likelihood that a backend
 * estimates without bias from N inner draws ({@link org.logz.kernel.LikelihoodKernel}) and, for some models,
 * computes exactly. The evidence is {@code Z = ∫ p(θ) p(y | θ) dθ}.
 */
public interface LatentModel {
    /** What identifies the data in a checkpoint: the model's kind and its arrays, hashed. */
    String fingerprint();

    /** What the model is called in reports. */
    String description();

    /** Names of the parameters θ, in order. */
    List<String> parameterNames();

    /** d, the number of parameters. */
    default int parameters() {
        return parameterNames().size();
    }

    /** Prior means of θ (independent normals). */
    double[] priorMean();

    /** Prior standard deviations of θ. */
    double[] priorSd();

    /** {@code log p(θ)}, the normalized log prior. */
    default double logPrior(double[] theta) {
        double[] mean = priorMean();
        double[] sd = priorSd();
        double sum = 0;
        for (int k = 0; k < mean.length; k++) {
            double z = (theta[k] - mean[k]) / sd[k];
            sum += -0.5 * z * z - Math.log(sd[k]) - 0.5 * Math.log(2 * Math.PI);
        }
        return sum;
    }

    /** {@code log p(y | θ)} exactly where the model has it (the GLMM by adaptive Gauss-Hermite quadrature). */
    OptionalDouble exactLogLikelihood(double[] theta);

    /** Whether {@link #exactLogLikelihood} gives a value. */
    boolean hasExactLikelihood();

    /** The inner estimators of the likelihood the model has, the default (used when none is named) first. */
    List<Likelihood.Proposal> proposals();

    /** The inner estimator used when none is named. */
    default Likelihood.Proposal defaultProposal() {
        return proposals().get(0);
    }

    /** Units of inner work per likelihood estimate and inner draw (observations touched), for cost reports. */
    long observations();
}
