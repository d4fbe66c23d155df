package org.logz.cuda;

import java.util.Arrays;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.HmcModel;
import org.logz.kernel.HmcStepSizes;
import org.logz.kernel.TemperedKernel;

/**
 * HMC on the device for an {@link HmcModel} whose .cu runs hmc.cuh's transitions (gmm_hmc.cu, gpc_hmc.cu): the host
 * picks each row's step size ({@link HmcStepSizes}) and uploads it with the call, the device runs each chain's
 * transitions, and the host reads the rows' accept counts back to adapt (one vector of {@code count} doubles each way
 * per call). The leapfrog's momenta, gradients and proposal (and what the model's density needs) live in device
 * scratch of {@link #scratchPerChain()} doubles per chain, kept between calls. Subclasses launch their model's kernels.
 */
abstract class CudaHmcKernel implements TemperedKernel {
    protected final CudaBackend backend;
    private final HmcModel model;
    private final HmcStepSizes stepSizes;
    private final int d;
    private ParticleVector scratch;
    private boolean closed;

    CudaHmcKernel(CudaBackend backend, HmcModel model) {
        this.backend = backend;
        this.model = model;
        this.stepSizes = new HmcStepSizes(model.hmc());
        this.d = model.dimension();
    }

    /** Doubles of device scratch per chain. */
    protected abstract long scratchPerChain();

    protected abstract void launchBase(long x, int count, long seed, int step, int first);

    protected abstract void launchLogDensity(long x, int count, double beta, long scratch, long out);

    protected abstract void launchLevels(long x, int count, long levelBetas, int levels, long scratch, long logF,
                                         long slope);

    protected abstract void launchAnneal(long x, int count, double from, double to, long logW, int transitions, long eps,
                                         long scratch, long accepted, long seed, int step, int first);

    /** {@code betas} 0 for the one {@code beta} of every row. */
    protected abstract void launchTransition(long x, int count, long betas, double beta, int transitions, long eps,
                                             long scratch, long accepted, long seed, int step, int first);

    /** Frees the subclass's device buffers. */
    protected void release() {
    }

    @Override
    public final int dimension() {
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
        long needed = Math.max(1, scratchPerChain() * count);
        if (needed > Integer.MAX_VALUE) {
            throw new UserException(count + " chains × " + d + " dimensions exceed the 2^31 doubles of one device buffer "
                    + "for HMC's scratch; use fewer chains");
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
            launchBase(xm, count, seed, step, firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        long xm = states(x);
        if (count > 0) {
            launchLogDensity(xm, count, beta, scratch(count), backend.own(out).address());
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
            launchAnneal(xm, count, from, to, backend.own(logW).address(), transitions,
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
            launchTransition(xm, count, perRow, beta[0], transitions, backend.own(call.epsOnDevice).address(),
                    scratch(count), backend.own(call.accepted).address(), seed, step, firstChain);
            call.learn(seed, transitions);
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        long xm = states(x);
        if (count > 0) {
            launchLevels(xm, count, backend.own(levelBetas).address(), levels, scratch(count),
                    backend.own(logF).address(), backend.own(slope).address());
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("HMC kernel of " + model.description() + " is closed");
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
            release();
        }
    }
}
