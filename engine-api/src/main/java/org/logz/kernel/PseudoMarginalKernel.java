package org.logz.kernel;

import java.util.stream.IntStream;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.random.NormalStream;
import org.logz.random.StreamTag;

/**
 * The tempered kernel of {@link PseudoMarginal} on any backend: the Metropolis-Hastings bookkeeping runs on the
 * host (d numbers per particle), the likelihood estimates, M × N inner draws per move, on the backend's
 * {@link LikelihoodKernel} (exact likelihoods on the host).
 *
 * <p>A transition at β is one pseudo-marginal random-walk move (Andrieu &amp; Roberts 2009; Tran et al. Algorithm 1
 * step iii) by {@link RandomWalk} on tag {@code PROPOSAL}, scaled by the covariance of the whole cloud;
 * a fresh estimate {@code p̂'} at θ'; accepted when {@code log u < log p(θ') + β log p̂' - log p(θ) - β log p̂},
 * u the uniform of block {@code (d, particle, step, PROPOSAL)}. The estimate of the state kept is never refreshed
 * (that is what keeps the extended target exact).
 */
final class PseudoMarginalKernel implements TemperedKernel {
    private final ParticleBackend backend;
    private final LatentModel latent;
    private final Likelihood likelihood;
    private final LikelihoodKernel estimator;
    private final int d;
    private ParticleMatrix proposals;
    private ParticleVector estimates;
    private boolean closed;

    /** @param estimator the backend's estimator for an estimated likelihood; null for an exact one */
    PseudoMarginalKernel(ParticleBackend backend, PseudoMarginal model, LikelihoodKernel estimator) {
        this.backend = backend;
        this.latent = model.latent();
        this.likelihood = model.likelihood();
        this.estimator = estimator;
        this.d = latent.parameters();
    }

    @Override
    public int dimension() {
        return d + 2;
    }

    /** θ ~ p(θ) from the normals 0..d-1 of {@code (particle, step, BASE)}, with its likelihood (estimate). */
    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        checkOpen();
        wholeCloud(firstChain);
        double[] mean = latent.priorMean();
        double[] sd = latent.priorSd();
        float[] theta = new float[count * d];
        for (int r = 0; r < count; r++) {
            NormalStream normals = new NormalStream(seed, r, step, StreamTag.BASE);
            for (int k = 0; k < d; k++) {
                theta[r * d + k] = (float) (mean[k] + sd[k] * normals.at(k));
            }
        }
        double[] logLik = logLikelihoods(theta, count, seed, step);
        float[] states = new float[count * (d + 2)];
        for (int r = 0; r < count; r++) {
            System.arraycopy(theta, r * d, states, r * (d + 2), d);
            PseudoMarginal.storeLogLikelihood(logLik[r], states, r * (d + 2) + d);
        }
        backend.upload(states, count, x);
    }

    /**
     * Refuses a batch that is not the whole cloud: every move's proposal is scaled by the covariance of all the
     * particles, so a batch of them would move differently from the same particles in the whole run.
     */
    private static void wholeCloud(int firstChain) {
        if (firstChain != 0) {
            throw new UnsupportedOperationException("pseudo-marginal moves couple the particles through the cloud's "
                    + "covariance: its chains run as one batch, not from chain " + firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] states = states(x, count);
        double[] values = new double[count];
        for (int r = 0; r < count; r++) {
            values[r] = logPrior(states, r) + beta * logLikelihood(states, r);
        }
        backend.upload(values, out);
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        wholeCloud(firstChain);
        float[] states = states(x, count);
        double[] weights = backend.download(logW, count);
        for (int r = 0; r < count; r++) {
            double l = logLikelihood(states, r);
            // (to - from) · log p̂ is -inf·0 only for a zero step, which adds nothing
            weights[r] += to == from ? 0 : (to - from) * l;
        }
        backend.upload(weights, logW);
        if (transitions > 0) {
            move(x, states, count, to, transitions, seed, step);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        wholeCloud(firstChain);
        if (!(betas instanceof Betas.Uniform uniform)) {
            throw new UnsupportedOperationException("pseudo-marginal moves have no per-particle temperatures");
        }
        move(x, states(x, count), count, uniform.beta(), transitions, seed, step);
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] states = states(x, count);
        double[] betas = backend.download(levelBetas, levels);
        double[] f = new double[count * levels];
        double[] s = new double[count * levels];
        for (int r = 0; r < count; r++) {
            double prior = logPrior(states, r);
            double l = logLikelihood(states, r);
            for (int k = 0; k < levels; k++) {
                f[r * levels + k] = prior + betas[k] * l;
                s[r * levels + k] = l;
            }
        }
        backend.upload(f, logF);
        backend.upload(s, slope);
    }

    private void move(ParticleMatrix x, float[] states, int count, double beta, int transitions, long seed, int step) {
        for (int t = 0; t < transitions; t++) {
            double[] factor = RandomWalk.factor(states, count, d + 2, d, latent.priorSd());
            float[] proposed = RandomWalk.propose(states, count, d + 2, d, factor, seed, 0, step + t,
                    StreamTag.PROPOSAL);
            double[] logLik = logLikelihoods(proposed, count, seed, step + t);
            double[] theta = new double[d];
            for (int r = 0; r < count; r++) {
                for (int k = 0; k < d; k++) {
                    theta[k] = proposed[r * d + k];
                }
                double current = logPrior(states, r) + (beta == 0 ? 0 : beta * logLikelihood(states, r));
                double candidate = latent.logPrior(theta) + (beta == 0 ? 0 : beta * logLik[r]);
                if (RandomWalk.accept(candidate - current, seed, d, r, step + t, StreamTag.PROPOSAL)) {
                    System.arraycopy(proposed, r * d, states, r * (d + 2), d);
                    PseudoMarginal.storeLogLikelihood(logLik[r], states, r * (d + 2) + d);
                }
            }
        }
        backend.upload(states, count, x);
    }

    /** The likelihood (estimate) of every θ in {@code theta} (count × d); estimates draw from (seed, r, step). */
    private double[] logLikelihoods(float[] theta, int count, long seed, int step) {
        if (likelihood instanceof Likelihood.Estimated estimated) {
            if (proposals == null || proposals.rows() < count) {
                releaseScratch();
                proposals = backend.matrix(count, d);
                estimates = backend.vector(count);
            }
            backend.upload(theta, count, proposals);
            estimator.estimate(proposals, count, estimated, seed, step, estimates);
            return backend.download(estimates, count);
        }
        double[] out = new double[count];
        IntStream.range(0, count).parallel().forEach(r -> {
            double[] th = new double[d];
            for (int k = 0; k < d; k++) {
                th[k] = theta[r * d + k];
            }
            out[r] = latent.exactLogLikelihood(th).orElseThrow();
        });
        return out;
    }

    private double logPrior(float[] states, int r) {
        double[] theta = new double[d];
        for (int k = 0; k < d; k++) {
            theta[k] = states[r * (d + 2) + k];
        }
        return latent.logPrior(theta);
    }

    private double logLikelihood(float[] states, int r) {
        return PseudoMarginal.storedLogLikelihood(states[r * (d + 2) + d], states[r * (d + 2) + d + 1]);
    }

    private float[] states(ParticleMatrix x, int count) {
        checkOpen();
        return backend.download(x, count);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("pseudo-marginal kernel is closed");
        }
    }

    private void releaseScratch() {
        if (proposals != null) {
            proposals.close();
            estimates.close();
            proposals = null;
            estimates = null;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            releaseScratch();
            if (estimator != null) {
                estimator.close();
            }
        }
    }
}
