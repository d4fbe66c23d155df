package org.logz.cuda;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.TemperedKernel;
import org.logz.model.Rbm;
import org.logz.model.rbm.MarginalRbm;

/**
 * The marginal RBM path on the device (rbm_marginal.cu): the biases ({@code [a | b]}) and the tables
 * ({@code [W by column | expm1(W) | expm1(−W)]}, 3·N·H doubles) are uploaded once, in one buffer; each chain's pre-activations g and
 * σ(g) (as e = exp(g) and s = σ(g), rbm_marginal.cu) live in device scratch of 2·N doubles per chain, grown to the
 * largest batch seen.
 */
final class CudaMarginalRbmKernel implements TemperedKernel {
    private final CudaBackend backend;
    private final MarginalRbmKernels kernels;
    private final int n;
    private final int hidden;
    private final int span;
    /** {@code [a | b | W by column | expm1(W) | expm1(−W)]}: rbm_marginal.cu's p, then its tables. */
    private final ParticleVector parameters;
    private ParticleVector g;
    private ParticleVector s;
    private boolean closed;

    CudaMarginalRbmKernel(CudaBackend backend, MarginalRbm model) {
        this.backend = backend;
        this.kernels = backend.launcher(MarginalRbmKernels.class, MarginalRbmKernels::new);
        Rbm rbm = model.rbm();
        this.n = rbm.visible();
        this.hidden = rbm.hidden();
        this.span = model.span();
        long size = (long) n * hidden;
        if (n + hidden + 3 * size > Integer.MAX_VALUE) {
            throw new UserException("the marginal path's tables of 3 × " + n + " × " + hidden
                    + " doubles exceed one device buffer; use --path full");
        }
        double[] m = new double[(int) (n + hidden + 3 * size)];
        float[] a = rbm.visibleBias();
        float[] b = rbm.hiddenBias();
        for (int i = 0; i < n; i++) {
            m[i] = a[i];
        }
        for (int j = 0; j < hidden; j++) {
            m[n + j] = b[j];
        }
        int at = n + hidden;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < hidden; j++) {
                m[at + j * n + i] = rbm.weight(i, j);
            }
        }
        System.arraycopy(model.flipTable(1), 0, m, (int) (at + size), (int) size);
        System.arraycopy(model.flipTable(-1), 0, m, (int) (at + 2 * size), (int) size);
        this.parameters = backend.vector(m);
    }

    @Override
    public int dimension() {
        return hidden;
    }

    /** Grows g and σ(g) to {@code count} chains. */
    private void scratch(int count) {
        long needed = (long) count * n;
        if (needed > Integer.MAX_VALUE) {
            throw new UserException(count + " chains × " + n + " visible units exceed the 2^31 doubles of one device "
                    + "buffer for the marginal path's pre-activations; use fewer chains");
        }
        if (g == null || g.length() < needed) {
            if (g != null) {
                g.close();
                s.close();
                g = null;
                s = null;
            }
            g = backend.vector((int) needed);
            s = backend.vector((int) needed);
        }
    }

    private long p() {
        return backend.own(parameters).address();
    }

    /** The tables follow the N + H biases (addresses in bytes). */
    private long t() {
        return p() + 8L * (n + hidden);
    }

    private long gs() {
        return backend.own(g).address();
    }

    private long ss() {
        return backend.own(s).address();
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        long h = states(x);
        if (count > 0) {
            kernels.base(h, count, hidden, seed, step, firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        long h = states(x);
        if (count > 0) {
            scratch(count);
            kernels.logDensity(h, count, n, hidden, p(), t(), gs(), ss(), beta, backend.own(out).address());
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        long h = states(x);
        if (count > 0) {
            scratch(count);
            kernels.anneal(h, count, n, hidden, span, p(), t(), from, to, backend.own(logW).address(), transitions, gs(),
                    ss(), seed, step, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        long h = states(x);
        if (count == 0 || transitions == 0) {
            return;
        }
        scratch(count);
        double beta = betas instanceof Betas.Uniform u ? u.beta() : 0;
        long perRow = betas instanceof Betas.PerParticle pp ? backend.own(pp.betas()).address() : 0;
        kernels.transition(h, count, n, hidden, span, p(), t(), perRow, beta, transitions, gs(), ss(), seed, step,
                firstChain);
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        long h = states(x);
        if (count > 0) {
            scratch(count);
            kernels.levels(h, count, n, hidden, p(), t(), gs(), ss(), backend.own(levelBetas).address(), levels,
                    backend.own(logF).address(), backend.own(slope).address());
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("marginal RBM kernel is closed");
        }
        return backend.own(x).address();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            parameters.close();
            if (g != null) {
                g.close();
                s.close();
            }
        }
    }
}
