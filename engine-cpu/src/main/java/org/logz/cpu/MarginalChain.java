package org.logz.cpu;

import org.logz.model.Rbm;
import org.logz.model.rbm.MarginalRbm;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * One chain of the marginal RBM path at a time (MarginalRbm; Habeck 2017, §6.3): its hidden state h, the exponentials
 * {@code e = exp(g)} of the visible pre-activations {@code g = a + W h} and {@code s = σ(g)} in float64, so that a
 * single-unit Metropolis flip costs O(N) multiplications and no exponential. One instance per worker thread; {@link #load} starts a chain, {@link #sweep} moves it.
 */
final class MarginalChain {
    private final int n;
    private final int hidden;
    private final int span;
    private final double[] a;
    private final double[] b;
    /** W by hidden column: {@code wColumns[j·N + i] = W_ij}. */
    private final double[] wColumns;
    private final double[] flipOn;
    private final double[] flipOff;
    final float[] h;
    /** {@code e^{g_i}}, g = a + W h the visible pre-activations. */
    private final double[] e;
    /** {@code σ(g_i) = e_i / (1 + e_i)}. */
    private final double[] s;
    private double negF;
    private final int[] words = new int[4];

    /** The model's tables, shared (read-only) by every chain of a kernel. */
    record Tables(int n, int hidden, int span, double[] a, double[] b, double[] wColumns, double[] flipOn,
                  double[] flipOff) {
        static Tables of(MarginalRbm model) {
            Rbm rbm = model.rbm();
            int n = rbm.visible();
            int k = rbm.hidden();
            double[] columns = new double[n * k];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < k; j++) {
                    columns[j * n + i] = rbm.weight(i, j);
                }
            }
            return new Tables(n, k, model.span(), toDouble(rbm.visibleBias()), toDouble(rbm.hiddenBias()), columns,
                    model.flipTable(1), model.flipTable(-1));
        }

        private static double[] toDouble(float[] v) {
            double[] d = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                d[i] = v[i];
            }
            return d;
        }
    }

    MarginalChain(Tables t) {
        n = t.n();
        hidden = t.hidden();
        span = t.span();
        a = t.a();
        b = t.b();
        wColumns = t.wColumns();
        flipOn = t.flipOn();
        flipOff = t.flipOff();
        h = new float[hidden];
        e = new double[n];
        s = new double[n];
    }

    /**
     * Row {@code r} of {@code x} as the current chain: h, then g afresh (a plus the active columns in order), −F(h)
     * from g, and g turned into {@code e = exp(g)} and {@code s = e / (1 + e)}.
     */
    void load(CpuMatrix x, int r) {
        x.readRow(r, h, 0);
        System.arraycopy(a, 0, e, 0, n);
        for (int j = 0; j < hidden; j++) {
            if (h[j] != 0f) {
                for (int i = 0, base = j * n; i < n; i++) {
                    e[i] += wColumns[base + i];
                }
            }
        }
        double f = 0;
        for (int j = 0; j < hidden; j++) {
            f += b[j] * h[j];
        }
        for (int i = 0; i < n; i++) {
            f += LogSpace.softplus(e[i]);
        }
        negF = f;
        for (int i = 0; i < n; i++) {
            e[i] = Math.exp(e[i]);
            s[i] = e[i] / (1 + e[i]);
        }
    }

    /** {@code −F(h) = bᵀh + Σ_i softplus(g_i)} of the chain as {@link #load} found it. */
    double negativeFreeEnergy() {
        return negF;
    }

    /**
     * One sweep of single-unit Metropolis flips at β (units H−1 .. 0 when {@code reversed}): flip j is accepted when
     * {@code log u < β·Δ_j}, u word j mod 4 of block {@code (j/4, chain, step, MODEL)}. An accepted flip multiplies e
     * by {@code e^{±W_:j}} (as {@code e + e·D}) and refreshes s: no exponential, where σ(g) would take N of them.
     */
    void sweep(double beta, boolean reversed, long seed, int chain, int step) {
        int block = -1;
        for (int q = 0; q < hidden; q++) {
            int j = reversed ? hidden - 1 - q : q;
            if (j >>> 2 != block) {
                block = j >>> 2;
                Philox.block(seed, block, chain, step, StreamTag.MODEL, words);
            }
            int sign = h[j] == 0f ? 1 : -1;
            double[] d = sign > 0 ? flipOn : flipOff;
            int base = j * n;
            if (Math.log(Philox.toUniform(words[j & 3])) < beta * gain(d, base, sign * b[j])) {
                h[j] = sign > 0 ? 1f : 0f;
                for (int i = 0; i < n; i++) {
                    e[i] += e[i] * d[base + i];
                    s[i] = e[i] / (1 + e[i]);
                }
            }
        }
    }

    /** {@code −F} after a flip minus before: {@code bias + Σ_i log(1 + s_i D_ij)}, the product logged every span factors. */
    private double gain(double[] d, int base, double bias) {
        double logs = bias;
        for (int from = 0; from < n; from += span) {
            double product = 1;
            for (int i = from, to = Math.min(n, from + span); i < to; i++) {
                product *= 1 + s[i] * d[base + i];
            }
            logs += Math.log(product);
        }
        return logs;
    }

    /** The chain's h into row r. */
    void store(CpuMatrix x, int r) {
        x.writeRow(r, h, 0);
    }
}
