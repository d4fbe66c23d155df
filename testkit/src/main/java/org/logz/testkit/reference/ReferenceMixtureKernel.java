package org.logz.testkit.reference;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.model.mixture.Mixture;

/**
 * A Gaussian mixture's point likelihoods on the reference backend, written from DESIGN §5's formula rather than by
 * calling {@link Mixture#logLikelihood}: {@code log Σ_k w_k N(y_i; μ_k, σ² I)}, the components' exponents shifted by
 * their largest, one particle after another.
 */
final class ReferenceMixtureKernel implements PointLikelihoodKernel {
    private final ReferenceBackend backend;
    private final Mixture model;
    private boolean closed;

    ReferenceMixtureKernel(ReferenceBackend backend, Mixture model) {
        this.backend = backend;
        this.model = model;
    }

    @Override
    public void logLikelihoods(ParticleMatrix theta, int count, IndexVector points, int from, int to, ParticleVector out) {
        if (closed) {
            throw new IllegalStateException("mixture kernel is closed");
        }
        float[] rows = backend.values(theta);
        int[] order = backend.values(points);
        double[] values = backend.values(out);
        int cols = theta.cols();
        int kk = model.components();
        int d = model.dimension();
        double s = model.sigma();
        double norm = d * (Math.log(s) + 0.5 * Math.log(2 * Math.PI));
        double[] exponent = new double[kk];
        for (int r = 0; r < count; r++) {
            double sum = 0;
            for (int k = from; k < to; k++) {
                int i = order[k];
                double max = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < kk; c++) {
                    double sq = 0;
                    for (int j = 0; j < d; j++) {
                        double diff = model.y(i, j) - rows[r * cols + c * d + j];
                        sq += diff * diff;
                    }
                    exponent[c] = model.logWeight(c) - sq / (2 * s * s);
                    max = Math.max(max, exponent[c]);
                }
                double total = 0;
                for (int c = 0; c < kk; c++) {
                    total += Math.exp(exponent[c] - max);
                }
                sum += max + Math.log(total) - norm;
            }
            values[r] = sum;
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
