package org.logz.model.rbm;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;

/**
 * The moment-averages path's kernel on any backend, made of the backend's own RBM kernels: the RBM θ(β) of
 * {@link RbmSpline#at} is an ordinary RBM, so {@code log f_β} is its log density and a transition at β its Gibbs sweep,
 * both through the kernel of {@code TemperedRbm(θ(β), base)} at β = 1, whose f is θ(β)'s own. An annealing step binds
 * the kernel of its new β (an N·H upload) and keeps it for the next step's old β. A Gibbs sweep on the visible units
 * through fresh hidden ones is reversible, so a reverse run needs no other order. The slope d/dβ log f_β(x), which the
 * annealing trace and the pilots read, is computed on the host from the segment's parameter differences:
 * {@code (Δaᵀx + Σ_j σ(b_j(β) + xW(β)_:j)(Δb_j + xΔW_:j)) / Δβ}, the segment to the right at a knot.
 */
final class RbmSplineKernel implements TemperedKernel {
    private final ParticleBackend backend;
    private final RbmSpline model;
    private double boundBeta = Double.NaN;
    private TemperedKernel bound;
    private ParticleVector from;
    private ParticleVector to;
    private int scratch;

    RbmSplineKernel(ParticleBackend backend, RbmSpline model) {
        this.backend = backend;
        this.model = model;
    }

    /** The kernel of θ(β), bound anew unless it is the last one bound. */
    private TemperedKernel at(double beta) {
        if (bound == null || beta != boundBeta) {
            close(bound);
            bound = Kernels.tempered(backend, new TemperedRbm(model.at(beta), model.base()));
            boundBeta = beta;
        }
        return bound;
    }

    private void ensureScratch(int count) {
        if (count > scratch) {
            close(from);
            close(to);
            from = backend.vector(count);
            to = backend.vector(count);
            scratch = count;
        }
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        at(0).sampleBase(x, count, seed, step, firstChain);
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        at(beta).logDensity(x, count, 1.0, out);
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double fromBeta, double toBeta, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        ensureScratch(count);
        at(fromBeta).logDensity(x, count, 1.0, from);
        TemperedKernel next = at(toBeta);
        next.logDensity(x, count, 1.0, to);
        backend.axpy(1.0, to, logW, 0, count);
        backend.axpy(-1.0, from, logW, 0, count);
        if (transitions > 0) {
            next.transition(x, count, Betas.of(1.0), transitions, seed, step, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        if (!(betas instanceof Betas.Uniform u)) {
            throw new UserException("the moment-averages path moves every chain at one β; tempered sampling and "
                    + "parallel tempering do not run on it");
        }
        at(u.beta()).transition(x, count, Betas.of(1.0), transitions, seed, step, firstChain);
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] states = backend.download(x, count);
        double[] betas = backend.download(levelBetas, levels);
        double[] f = new double[count * levels];
        double[] d = new double[count * levels];
        for (int k = 0; k < levels; k++) {
            Rbm rbm = model.at(betas[k]);
            int i = model.segment(betas[k]);
            Rbm lo = model.knots().get(i);
            Rbm hi = model.knots().get(i + 1);
            double width = model.knotBetas()[i + 1] - model.knotBetas()[i];
            for (int r = 0; r < count; r++) {
                double[] fd = logDensityAndSlope(states, r, rbm, lo, hi, width);
                f[r * levels + k] = fd[0];
                d[r * levels + k] = fd[1];
            }
        }
        backend.upload(f, logF);
        backend.upload(d, slope);
    }

    /** {@code log f_θ(x_r)} and its derivative along the segment from {@code lo} to {@code hi}, in float64. */
    private static double[] logDensityAndSlope(float[] states, int r, Rbm rbm, Rbm lo, Rbm hi, double width) {
        int n = rbm.visible();
        int h = rbm.hidden();
        float[] w = rbm.weights();
        float[] wLo = lo.weights();
        float[] wHi = hi.weights();
        double logF = 0;
        double slope = 0;
        double[] field = new double[h];
        double[] change = new double[h];
        for (int j = 0; j < h; j++) {
            field[j] = rbm.hiddenBias()[j];
            change[j] = hi.hiddenBias()[j] - lo.hiddenBias()[j];
        }
        for (int v = 0; v < n; v++) {
            if (states[r * n + v] == 0) {
                continue;
            }
            logF += rbm.visibleBias()[v];
            slope += hi.visibleBias()[v] - lo.visibleBias()[v];
            for (int j = 0; j < h; j++) {
                field[j] += w[v * h + j];
                change[j] += wHi[v * h + j] - wLo[v * h + j];
            }
        }
        for (int j = 0; j < h; j++) {
            logF += LogSpace.softplus(field[j]);
            slope += LogSpace.sigmoid(field[j]) * change[j];
        }
        return new double[] {logF, slope / width};
    }

    @Override
    public void close() {
        close(bound);
        bound = null;
        close(from);
        close(to);
        from = null;
        to = null;
        scratch = 0;
    }

    private static void close(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
