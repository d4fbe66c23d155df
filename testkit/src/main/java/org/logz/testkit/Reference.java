package org.logz.testkit;

import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;

/** Plain float64 host formulas that backend results are checked against. */
public final class Reference {
    private Reference() {
    }

    /** {@code log f_β(x) = (1-β) a0ᵀx + β aᵀx + Σ_j softplus(β (b_j + xᵀW_:j))} for particle {@code r}. */
    public static double logDensity(Rbm rbm, float[] a0, double beta, float[] states, int r) {
        int n = rbm.visible();
        float[] a = rbm.visibleBias();
        float[] b = rbm.hiddenBias();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += ((1 - beta) * a0[i] + beta * a[i]) * states[r * n + i];
        }
        for (int j = 0; j < rbm.hidden(); j++) {
            double u = b[j];
            for (int i = 0; i < n; i++) {
                u += (double) states[r * n + i] * rbm.weight(i, j);
            }
            s += LogSpace.softplus(beta * u);
        }
        return s;
    }

    /** {@code d/dβ log f_β(x_r) = (a - a0)ᵀx + Σ_j u_j σ(β u_j)}, {@code u = b + xW}. */
    public static double slope(Rbm rbm, float[] a0, double beta, float[] states, int r) {
        int n = rbm.visible();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += ((double) rbm.visibleBias()[i] - a0[i]) * states[r * n + i];
        }
        for (int j = 0; j < rbm.hidden(); j++) {
            double u = rbm.hiddenBias()[j];
            for (int i = 0; i < n; i++) {
                u += (double) states[r * n + i] * rbm.weight(i, j);
            }
            s += u * LogSpace.sigmoid(beta * u);
        }
        return s;
    }

    /**
     * Log-odds of visible unit {@code unit} entering the sequential path given the states of the
     * units before it (ARM eq. 14): {@code a_u + Σ_j [softplus(g_j + W_uj) - softplus(g_j)]} with
     * {@code g = b + Σ_{i<unit} x_i W_i:}.
     */
    public static double entryLogit(Rbm rbm, float[] states, int r, int unit) {
        int n = rbm.visible();
        double s = rbm.visibleBias()[unit];
        for (int j = 0; j < rbm.hidden(); j++) {
            double g = rbm.hiddenBias()[j];
            for (int i = 0; i < unit; i++) {
                g += (double) states[r * n + i] * rbm.weight(i, j);
            }
            s += LogSpace.softplus(g + rbm.weight(unit, j)) - LogSpace.softplus(g);
        }
        return s;
    }

    /**
     * Exact probabilities of the states of the first {@code active} visible units under the
     * sequential path's {@code p_active} (index bit i = unit i).
     */
    public static double[] sequentialProbabilities(Rbm rbm, int active) {
        double[] logP = new double[1 << active];
        for (int s = 0; s < logP.length; s++) {
            double v = 0;
            for (int i = 0; i < active; i++) {
                v += (s >>> i & 1) * rbm.visibleBias()[i];
            }
            for (int j = 0; j < rbm.hidden(); j++) {
                double g = rbm.hiddenBias()[j];
                for (int i = 0; i < active; i++) {
                    g += (s >>> i & 1) * rbm.weight(i, j);
                }
                v += LogSpace.softplus(g);
            }
            logP[s] = v;
        }
        double logZ = LogSpace.logSumExp(logP);
        double[] p = new double[logP.length];
        for (int s = 0; s < p.length; s++) {
            p[s] = Math.exp(logP[s] - logZ);
        }
        return p;
    }

    /** Exact probabilities of every visible state under {@code p_β} (bit i of the index = unit i). */
    public static double[] temperedProbabilities(Rbm rbm, float[] a0, double beta) {
        int n = rbm.visible();
        double[] logP = new double[1 << n];
        float[] x = new float[n];
        for (int s = 0; s < logP.length; s++) {
            for (int i = 0; i < n; i++) {
                x[i] = s >>> i & 1;
            }
            logP[s] = logDensity(rbm, a0, beta, x, 0);
        }
        double logZ = LogSpace.logSumExp(logP);
        double[] p = new double[logP.length];
        for (int s = 0; s < p.length; s++) {
            p[s] = Math.exp(logP[s] - logZ);
        }
        return p;
    }

    /**
     * Pearson chi-square of the first {@code bits} units of rows of {@code stride} values against
     * probabilities {@code p} (bit i of a state's index = unit i).
     *
     * @return {chi2, degrees of freedom}
     */
    public static double[] chiSquare(float[] states, int count, int stride, int bits, double[] p) {
        int[] category = new int[count];
        for (int r = 0; r < count; r++) {
            for (int i = 0; i < bits; i++) {
                category[r] |= (states[r * stride + i] == 1f ? 1 : 0) << i;
            }
        }
        return chiSquare(category, p);
    }

    /**
     * Pearson chi-square of observed categories against probabilities {@code p}; categories with
     * expected count below 5 are pooled into one.
     *
     * @return {chi2, degrees of freedom}
     */
    public static double[] chiSquare(int[] category, double[] p) {
        int count = category.length;
        int[] freq = new int[p.length];
        for (int c : category) {
            freq[c]++;
        }
        double chi2 = 0;
        int bins = 0;
        double pooledExpected = 0;
        int pooledObserved = 0;
        for (int s = 0; s < p.length; s++) {
            double expected = count * p[s];
            if (expected < 5) {
                pooledExpected += expected;
                pooledObserved += freq[s];
                continue;
            }
            chi2 += (freq[s] - expected) * (freq[s] - expected) / expected;
            bins++;
        }
        if (pooledExpected > 0) {
            chi2 += (pooledObserved - pooledExpected) * (pooledObserved - pooledExpected) / pooledExpected;
            bins++;
        }
        return new double[] {chi2, bins - 1};
    }

    /**
     * Upper quantile of the chi-square distribution at tail probability 1e-4, by the Wilson-Hilferty
     * approximation (accurate to a few percent for df ≥ 3, conservative enough for a 1e-4 test).
     */
    public static double chiSquareCritical(double df) {
        double z = 3.719; // standard normal upper 1e-4 quantile
        double t = 1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df));
        return df * t * t * t;
    }
}
