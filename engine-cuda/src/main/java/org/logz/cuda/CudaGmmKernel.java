package org.logz.cuda;

import java.util.Arrays;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.HmcStepSizes;
import org.logz.kernel.TemperedKernel;
import org.logz.model.gmm.GaussianMixture;

/**
 * The Gaussian mixture by HMC on the device (gmm_hmc.cu): the host picks each row's step size ({@link HmcStepSizes})
 * and uploads it with the call, the device runs each chain's transitions, and the host reads the rows' accept counts
 * back to adapt (one vector of {@code count} doubles each way per call). The leapfrog's momenta, gradients and proposal
 * live in device scratch of 4·d doubles per chain, kept between calls.
 */
final class CudaGmmKernel implements TemperedKernel {
    private final CudaBackend backend;
    private final GmmHmcKernels kernels;
    private final GaussianMixture model;
    private final HmcStepSizes stepSizes;
    private final int d;
    private ParticleVector scratch;
    private boolean closed;

    CudaGmmKernel(CudaBackend backend, GaussianMixture model) {
        this.backend = backend;
        this.kernels = backend.launcher(GmmHmcKernels.class, GmmHmcKernels::new);
        this.model = model;
        this.stepSizes = new HmcStepSizes(model.hmc());
        this.d = model.dimension();
    }

    @Override
    public int dimension() {
        return d;
    }

    /** Adaptive step sizes follow the whole batch ({@link HmcStepSizes}): a part of it would adapt on its own. */
    private void requireOneBatch(int firstChain) {
        if (firstChain != 0 && model.hmc().adapt()) {
            throw new UnsupportedOperationException("adaptive HMC step sizes follow the whole batch: its chains run as "
                    + "one batch, not from chain " + firstChain);
        }
    }

    /** The leapfrog's scratch for {@code count} chains. */
    private long scratch(int count) {
        long needed = 4L * d * count;
        if (needed > Integer.MAX_VALUE) {
            throw new UserException(count + " chains × " + d + " dimensions exceed the 2^31 doubles of one device buffer "
                    + "for HMC's leapfrog scratch; use fewer chains");
        }
        if (scratch == null || scratch.length() < needed) {
            if (scratch != null) {
                scratch.close();
                scratch = null;
            }
            scratch = backend.vector((int) needed);
        }
        return backend.own(scratch).address();
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        requireOneBatch(firstChain);
        long xm = states(x);
        if (count > 0) {
            kernels.base(xm, count, model, seed, step, firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        long xm = states(x);
        if (count > 0) {
            kernels.logDensity(xm, count, model, beta, backend.own(out).address());
        }
    }

    /** A call's per-row step sizes on the device and its accept counts, freed after the call. */
    private final class Call implements AutoCloseable {
        final double[] betas;
        final double[] eps;
        final ParticleVector epsOnDevice;
        final ParticleVector accepted;

        Call(double[] betas, long seed) {
            this.betas = betas;
            this.eps = stepSizes.perRow(seed, betas, betas.length);
            this.epsOnDevice = backend.vector(betas.length);
            this.accepted = backend.vector(betas.length);
            backend.upload(eps, epsOnDevice);
        }

        void learn(long seed, int transitions) {
            double[] counts = backend.download(accepted, betas.length);
            int[] a = new int[counts.length];
            for (int r = 0; r < a.length; r++) {
                a[r] = (int) counts[r];
            }
            stepSizes.update(seed, betas, eps, a, a.length, transitions);
        }

        @Override
        public void close() {
            epsOnDevice.close();
            accepted.close();
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        requireOneBatch(firstChain);
        long xm = states(x);
        if (count == 0) {
            return;
        }
        double[] betas = new double[count];
        Arrays.fill(betas, to);
        try (Call call = new Call(betas, seed)) {
            kernels.anneal(xm, count, model, from, to, backend.own(logW).address(), transitions,
                    backend.own(call.epsOnDevice).address(), scratch(count), backend.own(call.accepted).address(), seed,
                    step, firstChain);
            if (transitions > 0) {
                call.learn(seed, transitions);
            }
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        requireOneBatch(firstChain);
        long xm = states(x);
        if (count == 0 || transitions == 0) {
            return;
        }
        double[] beta;
        long perRow = 0;
        if (betas instanceof Betas.PerParticle p) {
            beta = backend.download(p.betas(), count);
            perRow = backend.own(p.betas()).address();
        } else {
            beta = new double[count];
            Arrays.fill(beta, ((Betas.Uniform) betas).beta());
        }
        try (Call call = new Call(beta, seed)) {
            kernels.transition(xm, count, model, perRow, beta[0], transitions, backend.own(call.epsOnDevice).address(),
                    scratch(count), backend.own(call.accepted).address(), seed, step, firstChain);
            call.learn(seed, transitions);
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        long xm = states(x);
        if (count > 0) {
            kernels.levels(xm, count, model, backend.own(levelBetas).address(), levels, backend.own(logF).address(),
                    backend.own(slope).address());
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Gaussian mixture HMC kernel is closed");
        }
        return backend.own(x).address();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (scratch != null) {
                scratch.close();
            }
        }
    }
}
