package org.logz.kernel;

import org.logz.model.TemperedModel;

/**
 * A tempered model over R^d that Hamiltonian Monte Carlo samples ({@link Hmc}): {@code log f_β} with its gradient,
 * its slope in β, and exact base draws. Every backend's HMC kernel calls these (the CPU's through {@link Hmc}, the
 * reference's and CUDA's through their own copies of the model's formulas).
 */
public interface HmcModel extends TemperedModel {
    /** The sampler's settings. */
    HmcSettings hmc();

    /** {@code log f_β(x)} in float64; with {@code grad} non-null, its gradient in x is written there. */
    double logDensity(double beta, double[] x, double[] grad);

    /** {@code d/dβ log f_β(x)}. */
    double slope(double beta, double[] x);

    /** An exact draw from the base {@code p_0} for chain {@code particle} at Philox step {@code step}, into {@code out}. */
    void sampleBase(long seed, int particle, int step, double[] out);
}
