package org.logz.model;

import org.logz.base.UserException;

/**
 * AISEL's tempered path (Tran et al. §3, Algorithm 1 with π_0 the prior): particles are parameters θ of a
 * {@link LatentModel}, each carrying its likelihood value (estimate), and
 * {@code log f_β(θ, z) = log p(θ) + β log p̂_N(y | θ, z)}, linear in β, with slope {@code log p̂_N}. With
 * {@link Likelihood.Exact} the path is the plain posterior path of the SMC sampler; with an estimate the auxiliary
 * draws z behind p̂_N are part of the state (their density g_N cancels from every ratio), so annealing keeps each
 * particle's estimate until a move accepts a new one: the pseudo-marginal construction of eq. (3).
 *
 * <p>A particle's state is d + 2 floats: θ, then {@code log p̂} split as {@code hi = (float) v},
 * {@code lo = (float) (v - hi)} so that it keeps about 48 bits.
 */
public record PseudoMarginal(LatentModel latent, Likelihood likelihood) implements TemperedModel {
    /** The data's fingerprint and the likelihood (exact, or estimated with N draws and a proposal). */
    @Override
    public String fingerprint() {
        return latent.fingerprint() + ", " + likelihood;
    }

    public PseudoMarginal {
        if (likelihood instanceof Likelihood.Exact && !latent.hasExactLikelihood()) {
            throw new UserException(latent.description() + " has no exact likelihood; estimate it (--method aisel "
                    + "--inner N|auto)");
        }
        if (likelihood instanceof Likelihood.Estimated e) {
            e.proposal().requireFits(latent);
        }
    }

    @Override
    public String description() {
        return latent.description() + ", " + likelihood.describe();
    }

    @Override
    public String description(int transitionsPerStep) {
        return description() + ", " + transitionsPerStep + " pseudo-marginal Metropolis-Hastings move"
                + (transitionsPerStep > 1 ? "s" : "") + " per step";
    }

    /** d + 2: θ and the two halves of its log likelihood. */
    @Override
    public int dimension() {
        return latent.parameters() + 2;
    }

    /** The prior is normalized. */
    @Override
    public double logZ0() {
        return 0;
    }

    /** The state, a proposal's θ and its log likelihood. */
    @Override
    public long bytesPerChain() {
        return 4L * dimension() + 4L * latent.parameters() + 8;
    }

    @Override
    public boolean supportsTempering() {
        return false;
    }

    @Override
    public boolean linearPath() {
        return true;
    }

    /** The log likelihood stored in a state's last two floats. */
    public static double storedLogLikelihood(float hi, float lo) {
        return (double) hi + (double) lo;
    }

    /** Stores {@code v} as {@code {hi, lo}} at {@code row[at]}, {@code row[at + 1]}. */
    public static void storeLogLikelihood(double v, float[] row, int at) {
        float hi = (float) v;
        row[at] = hi;
        row[at + 1] = Double.isFinite(v) ? (float) (v - hi) : 0f;
    }
}
