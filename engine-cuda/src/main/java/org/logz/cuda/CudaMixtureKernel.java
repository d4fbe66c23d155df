package org.logz.cuda;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.model.mixture.Mixture;

/** A Gaussian mixture's point likelihoods on the device by mixture.cu; the data and weights are uploaded once. */
final class CudaMixtureKernel implements PointLikelihoodKernel {
    private final CudaBackend backend;
    private final Mixture model;
    private final ParticleVector y;
    private final ParticleVector logWeights;
    private final MixtureKernels kernels;
    private final double norm;
    private boolean closed;

    CudaMixtureKernel(CudaBackend backend, Mixture model) {
        this.backend = backend;
        this.model = model;
        int n = model.points();
        int d = model.dimension();
        double[] data = new double[n * d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                data[i * d + j] = model.y(i, j);
            }
        }
        double[] w = new double[model.components()];
        for (int c = 0; c < w.length; c++) {
            w[c] = model.logWeight(c);
        }
        this.y = backend.vector(data.length);
        ParticleVector weights = null;
        try {
            backend.upload(data, y);
            weights = backend.vector(w.length);
            backend.upload(w, weights);
        } catch (RuntimeException e) {
            y.close();
            if (weights != null) {
                weights.close();
            }
            throw e;
        }
        this.logWeights = weights;
        this.kernels = backend.launcher(MixtureKernels.class, MixtureKernels::new);
        this.norm = Mixture.normalizer(d, model.sigma());
    }

    @Override
    public void logLikelihoods(ParticleMatrix theta, int count, IndexVector points, int from, int to, ParticleVector out) {
        if (closed) {
            throw new IllegalStateException("mixture kernel is closed");
        }
        if (count > 0) {
            kernels.points(backend.own(theta).address(), count, theta.cols(), backend.own(y).address(),
                    backend.own(logWeights).address(), model.components(), model.dimension(), model.sigma(), norm,
                    backend.own(points).address(), from, to, backend.own(out).address());
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            y.close();
            logWeights.close();
        }
    }
}
