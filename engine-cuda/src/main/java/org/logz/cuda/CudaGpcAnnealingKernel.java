package org.logz.cuda;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.TemperedKernel;
import org.logz.model.gpc.TemperedGpc;

/**
 * GP classification on its tempered path on the device (gp_ellipse.cu): the base's mean, ℓ's
 * coefficients and the labels ({@code [μ | a | b | y]}, 4n doubles) and the base factor's columns
 * (rank·n doubles) are uploaded once; each chain's auxiliary draw ν and its ℓ between transitions live in device
 * scratch of n + 1 doubles per chain, grown to the largest batch seen.
 */
final class CudaGpcAnnealingKernel implements TemperedKernel {
    private final CudaBackend backend;
    private final GpcEllipseKernels kernels;
    private final TemperedGpc model;
    private final int n;
    private final GpcDeviceParams device;
    private ParticleVector nu;
    private boolean closed;

    CudaGpcAnnealingKernel(CudaBackend backend, TemperedGpc model) {
        this.backend = backend;
        this.kernels = backend.launcher(GpcEllipseKernels.class, GpcEllipseKernels::new);
        this.model = model;
        this.n = model.size();
        this.device = new GpcDeviceParams(backend, model);
    }

    @Override
    public int dimension() {
        return n;
    }

    /** ν for {@code count} chains, then their ℓ between transitions ({@link #ell}). */
    private long scratch(int count) {
        long needed = Math.max(1, (long) count * (n + 1));
        if (needed > Integer.MAX_VALUE) {
            throw new UserException(count + " chains × " + n + " cases exceed the 2^31 doubles of one device buffer "
                    + "for the elliptical slice sampler's auxiliary draws; use fewer chains");
        }
        if (nu == null || nu.length() < needed) {
            if (nu != null) {
                nu.close();
                nu = null;
            }
            nu = backend.vector((int) needed);
        }
        return backend.own(nu).address();
    }

    /** Where {@link #scratch} keeps the chains' ℓ: after their ν. */
    private static long ell(long scratch, int count, int n) {
        return scratch + 8L * count * n;
    }

    private long p() {
        return device.p();
    }

    private long g() {
        return device.columns();
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        long xm = states(x);
        if (count > 0) {
            kernels.base(xm, count, n, model.rank(), p(), g(), scratch(count), seed, step, firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        long xm = states(x);
        if (count > 0) {
            kernels.logDensity(xm, count, n, p(), model.constant(), beta, backend.own(out).address());
        }
    }

    /** The weight increment with the first transition's ℓ, then one launch pair per transition. */
    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        long xm = states(x);
        if (count == 0) {
            return;
        }
        long w = backend.own(logW).address();
        long draws = scratch(count);
        for (int t = 0; t < Math.max(1, transitions); t++) {
            kernels.step(xm, count, n, model.rank(), p(), g(), model.constant(), from, to, t == 0 ? w : 0, 0, to,
                    transitions > 0, draws, ell(draws, count, n), t == 0, seed, step + t, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        long xm = states(x);
        if (count == 0 || transitions == 0) {
            return;
        }
        double beta = betas instanceof Betas.Uniform u ? u.beta() : 0;
        long perRow = betas instanceof Betas.PerParticle pp ? backend.own(pp.betas()).address() : 0;
        long draws = scratch(count);
        for (int t = 0; t < transitions; t++) {
            kernels.step(xm, count, n, model.rank(), p(), g(), model.constant(), 0, 0, 0, perRow, beta, true, draws,
                    ell(draws, count, n), t == 0, seed, step + t, firstChain);
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        long xm = states(x);
        if (count > 0) {
            kernels.levels(xm, count, n, p(), model.constant(), backend.own(levelBetas).address(), levels,
                    backend.own(logF).address(), backend.own(slope).address());
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("GP classification annealing kernel is closed");
        }
        return backend.own(x).address();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            device.close();
            if (nu != null) {
                nu.close();
            }
        }
    }
}
