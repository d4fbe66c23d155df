package org.logz.cuda;

import java.util.function.LongUnaryOperator;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.LikelihoodKernel;
import org.logz.model.Likelihood;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.StochasticVolatility;

/**
 * Likelihood estimates of a latent-variable model on the device: the GLMM by glmm_likelihood.cu, the stochastic
 * volatility model's particle filter by sv_filter.cu. The data are uploaded once; per-particle scratch grows with
 * the largest call.
 */
final class CudaLikelihoodKernel implements LikelihoodKernel {
    /** One model's launch. */
    @FunctionalInterface
    private interface Launcher {
        void estimate(long theta, int count, int cols, Likelihood.Estimated likelihood, long seed, int step, long out,
                      LongUnaryOperator scratch);
    }

    private final CudaBackend backend;
    private final ParticleVector[] data;
    private final IndexVector[] indices;
    private final Launcher launcher;
    private ParticleVector scratch;
    private boolean closed;

    private CudaLikelihoodKernel(CudaBackend backend, ParticleVector[] data, IndexVector[] indices, Launcher launcher) {
        this.backend = backend;
        this.data = data;
        this.indices = indices;
        this.launcher = launcher;
    }

    static CudaLikelihoodKernel glmm(CudaBackend backend, Glmm model) {
        ParticleVector x = backend.vector(model.sortedCovariates().length);
        IndexVector y = null;
        IndexVector offsets = null;
        try {
            backend.upload(model.sortedCovariates(), x);
            y = backend.indices(model.sortedResponses().length);
            backend.upload(model.sortedResponses(), y);
            offsets = backend.indices(model.offsets().length);
            backend.upload(model.offsets(), offsets);
        } catch (RuntimeException e) {
            close(x, y, offsets);
            throw e;
        }
        int m = model.groups();
        long xa = backend.own(x).address();
        long ya = backend.own(y).address();
        long oa = backend.own(offsets).address();
        GlmmKernels kernels = backend.launcher(GlmmKernels.class, GlmmKernels::new);
        return new CudaLikelihoodKernel(backend, new ParticleVector[] {x}, new IndexVector[] {y, offsets},
                (theta, count, cols, l, seed, step, out, scratch) -> kernels.estimate(theta, count, cols,
                        model.covariates(), m, xa, ya, oa, l.draws(), l.proposal() == Likelihood.Proposal.LAPLACE, seed,
                        step, scratch.applyAsLong((long) count * m), out));
    }

    static CudaLikelihoodKernel stochasticVolatility(CudaBackend backend, StochasticVolatility model) {
        ParticleVector y = backend.vector(model.length());
        try {
            backend.upload(model.y(), y);
        } catch (RuntimeException e) {
            y.close();
            throw e;
        }
        long ya = backend.own(y).address();
        SvKernels kernels = backend.launcher(SvKernels.class, SvKernels::new);
        return new CudaLikelihoodKernel(backend, new ParticleVector[] {y}, new IndexVector[0],
                (theta, count, cols, l, seed, step, out, scratch) -> {
                    long block = (long) count * l.draws();
                    long base = scratch.applyAsLong(3 * block);
                    // three arrays of block doubles: h, next, log_weight (addresses in bytes)
                    kernels.filter(theta, count, cols, ya, model.length(), l.draws(), seed, step, base,
                            base + 8 * block, base + 16 * block, out);
                });
    }

    /** The address of scratch of at least {@code doubles} doubles. */
    private long scratch(long doubles) {
        if (doubles > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("likelihood scratch of " + doubles + " doubles exceeds one device vector");
        }
        if (scratch == null || scratch.length() < doubles) {
            if (scratch != null) {
                scratch.close();
                scratch = null;
            }
            scratch = backend.vector((int) doubles);
        }
        return backend.own(scratch).address();
    }

    @Override
    public void estimate(ParticleMatrix theta, int count, Likelihood.Estimated likelihood, long seed, int step,
                         ParticleVector out) {
        if (closed) {
            throw new IllegalStateException("likelihood kernel is closed");
        }
        if (count > 0) {
            launcher.estimate(backend.own(theta).address(), count, theta.cols(), likelihood, seed, step,
                    backend.own(out).address(), this::scratch);
        }
    }

    private static void close(AutoCloseable... buffers) {
        for (AutoCloseable b : buffers) {
            if (b != null) {
                try {
                    b.close();
                } catch (Exception ignored) {
                    // already failing: the first error is the one to report
                }
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        close(data);
        close(indices);
        if (scratch != null) {
            scratch.close();
        }
    }
}
