package org.logz.testkit.reference;

import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.LikelihoodKernel;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.StochasticVolatility;

/**
 * Likelihood estimates on the reference backend: the models' scalar steps, one particle after another, with fresh
 * scratch for every particle.
 */
final class ReferenceLikelihoodKernel implements LikelihoodKernel {
    private final ReferenceBackend backend;
    private final LatentModel model;
    private boolean closed;

    ReferenceLikelihoodKernel(ReferenceBackend backend, LatentModel model) {
        this.backend = backend;
        this.model = model;
    }

    @Override
    public void estimate(ParticleMatrix theta, int count, Likelihood.Estimated likelihood, long seed, int step,
                         ParticleVector out) {
        if (closed) {
            throw new IllegalStateException("likelihood kernel is closed");
        }
        float[] rows = backend.values(theta);
        int cols = theta.cols();
        double[] values = backend.values(out);
        int d = model.parameters();
        for (int r = 0; r < count; r++) {
            double[] th = new double[d];
            for (int k = 0; k < d; k++) {
                th[k] = rows[r * cols + k];
            }
            int n = likelihood.draws();
            if (model instanceof Glmm g) {
                values[r] = g.logLikelihoodEstimate(th, n, likelihood.proposal(), seed, r, step,
                        new double[(int) g.observations()], new double[2]);
            } else {
                values[r] = ((StochasticVolatility) model).logLikelihoodEstimate(th, n, seed, r, step, new double[n],
                        new double[n], new double[n]);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
