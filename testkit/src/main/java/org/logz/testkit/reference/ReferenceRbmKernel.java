package org.logz.testkit.reference;

import java.util.Arrays;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.kernel.TemperedKernel;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * RBM kernels one particle at a time in float64, straight from the formulas of DESIGN §2: the
 * base-rate path {@code log f_β(x) = ((1-β) a0 + β a)ᵀx + Σ_j softplus(β (b_j + xᵀW_:j))} (Salakhutdinov
 * and Murray 2008, eq. 15) with block Gibbs sweeps (hidden then visible), and the sequential path of the
 * ARM paper (eq. 13-14) with the pre-activations {@code g = b + xW} as the second state matrix. Unit k of
 * particle p at step s draws word {@code k mod 4} of Philox block {@code (k/4, p, s, tag)}, as every backend.
 */
final class ReferenceRbmKernel implements TemperedKernel, SequentialKernel {
    private final ReferenceBackend backend;
    private final Rbm rbm;
    private final float[] a;
    private final float[] b;
    private final float[] a0;
    private final int n;
    private final int h;
    private boolean closed;

    ReferenceRbmKernel(ReferenceBackend backend, Rbm rbm, float[] a0) {
        this.backend = backend;
        this.rbm = rbm;
        this.a = rbm.visibleBias();
        this.b = rbm.hiddenBias();
        this.a0 = a0;
        this.n = rbm.visible();
        this.h = rbm.hidden();
    }

    @Override
    public int dimension() {
        return n;
    }

    @Override
    public int length() {
        return n;
    }

    @Override
    public int[] stateColumns() {
        return new int[] {n, h};
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        float[] states = states(x);
        for (int p = 0; p < count; p++) {
            for (int i = 0; i < n; i++) {
                states[p * n + i] = uniform(seed, i, firstChain + p, step, StreamTag.BASE) < LogSpace.sigmoid(a0[i]) ? 1f : 0f;
            }
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] states = states(x);
        double[] values = backend.values(out);
        for (int p = 0; p < count; p++) {
            values[p] = logF(states, p, beta);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] states = states(x);
        double[] weights = backend.values(logW);
        for (int p = 0; p < count; p++) {
            weights[p] += logF(states, p, to) - logF(states, p, from);
        }
        transition(x, count, Betas.of(to), transitions, seed, step, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        float[] states = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle pp ? backend.values(pp.betas()) : null;
        for (int p = 0; p < count; p++) {
            double beta = perParticle != null ? perParticle[p] : ((Betas.Uniform) betas).beta();
            for (int t = 0; t < transitions; t++) {
                sweep(states, p, firstChain + p, n, beta, seed, step + t);
            }
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] states = states(x);
        double[] betas = backend.values(levelBetas);
        double[] f = backend.values(logF);
        double[] d = backend.values(slope);
        for (int p = 0; p < count; p++) {
            double[] u = field(states, p);
            double base = 0;
            double target = 0;
            for (int i = 0; i < n; i++) {
                base += a0[i] * states[p * n + i];
                target += a[i] * states[p * n + i];
            }
            for (int k = 0; k < levels; k++) {
                double beta = betas[k];
                double value = (1 - beta) * base + beta * target;
                double derivative = target - base;
                for (int j = 0; j < h; j++) {
                    value += LogSpace.softplus(beta * u[j]);
                    derivative += u[j] * LogSpace.sigmoid(beta * u[j]);
                }
                f[p * levels + k] = value;
                d[p * levels + k] = derivative;
            }
        }
    }

    @Override
    public void reset(ParticleState state, int first, int count) {
        float[] x = states(state.variables());
        float[] g = states(state.matrix(1));
        for (int p = first; p < first + count; p++) {
            Arrays.fill(x, p * n, (p + 1) * n, 0f);
            System.arraycopy(b, 0, g, p * h, h);
        }
    }

    @Override
    public void refresh(ParticleState state, int first, int count) {
        float[] x = states(state.variables());
        float[] g = states(state.matrix(1));
        for (int p = first; p < first + count; p++) {
            double[] u = field(x, p);
            for (int j = 0; j < h; j++) {
                g[p * h + j] = (float) u[j];
            }
        }
    }

    /** Block Gibbs sweeps at β = 1 over the first {@code active} units; units not entered stay 0. */
    @Override
    public void move(ParticleState state, int active, int first, int count, int transitions, long seed, int step) {
        if (active == 0) {
            return;
        }
        float[] x = states(state.variables());
        for (int p = first; p < first + count; p++) {
            for (int t = 0; t < transitions; t++) {
                sweep(x, p, p, active, 1.0, seed, step + t);
            }
        }
        refresh(state, first, count);
    }

    @Override
    public void smooth(ParticleState state, int variable, int first, int count, ParticleVector logW) {
        float[] g = states(state.matrix(1));
        double[] weights = backend.values(logW);
        for (int p = first; p < first + count; p++) {
            weights[p] += LogSpace.softplus(entryLogit(g, p, variable));
        }
    }

    @Override
    public void augment(ParticleState state, int variable, int first, int count, long seed, int step) {
        float[] x = states(state.variables());
        float[] g = states(state.matrix(1));
        for (int p = first; p < first + count; p++) {
            boolean on = uniform(seed, 0, p, step, StreamTag.AUGMENT) < LogSpace.sigmoid(entryLogit(g, p, variable));
            x[p * n + variable] = on ? 1f : 0f;
            if (on) {
                for (int j = 0; j < h; j++) {
                    g[p * h + j] += rbm.weight(variable, j);
                }
            }
        }
    }

    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        logDensity(state.variables(), count, 1.0, out);
    }

    /** ARM eq. 14: the log-odds of unit u given the entered units, {@code a_u + Σ_j softplus(g_j + W_uj) - softplus(g_j)}. */
    private double entryLogit(float[] g, int p, int unit) {
        double s = a[unit];
        for (int j = 0; j < h; j++) {
            s += LogSpace.softplus(g[p * h + j] + (double) rbm.weight(unit, j)) - LogSpace.softplus(g[p * h + j]);
        }
        return s;
    }

    /**
     * One block Gibbs sweep of particle p at β, drawing from chain {@code chain}'s streams: hidden units given x, then
     * the first {@code active} visible units given h.
     */
    private void sweep(float[] x, int p, int chain, int active, double beta, long seed, int step) {
        double[] u = field(x, p);
        double[] hidden = new double[h];
        for (int j = 0; j < h; j++) {
            hidden[j] = uniform(seed, j, chain, step, StreamTag.HIDDEN) < LogSpace.sigmoid(beta * u[j]) ? 1 : 0;
        }
        for (int i = 0; i < active; i++) {
            double v = a[i];
            for (int j = 0; j < h; j++) {
                v += rbm.weight(i, j) * hidden[j];
            }
            double z = (1 - beta) * a0[i] + beta * v;
            x[p * n + i] = uniform(seed, i, chain, step, StreamTag.VISIBLE) < LogSpace.sigmoid(z) ? 1f : 0f;
        }
    }

    private double logF(float[] x, int p, double beta) {
        double[] u = field(x, p);
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += ((1 - beta) * a0[i] + beta * a[i]) * x[p * n + i];
        }
        for (int j = 0; j < h; j++) {
            s += LogSpace.softplus(beta * u[j]);
        }
        return s;
    }

    /** {@code b + xW} of particle p in float64. */
    private double[] field(float[] x, int p) {
        double[] u = new double[h];
        for (int j = 0; j < h; j++) {
            u[j] = b[j];
        }
        for (int i = 0; i < n; i++) {
            if (x[p * n + i] != 0f) {
                for (int j = 0; j < h; j++) {
                    u[j] += x[p * n + i] * (double) rbm.weight(i, j);
                }
            }
        }
        return u;
    }

    /** Word {@code k mod 4} of Philox block {@code (k/4, particle, step, tag)} as a float32 uniform. */
    static double uniform(long seed, int k, int particle, int step, int tag) {
        int[] words = new int[4];
        Philox.block(seed, k / 4, particle, step, tag, words);
        return Philox.toUniform(words[k % 4]);
    }

    private float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("RBM kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
