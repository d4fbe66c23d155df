package org.logz.estimate.work;

import org.logz.numeric.IncreasingRoot;
import org.logz.numeric.LogSpace;

/**
 * The histogram estimator of Habeck (2017, §5.3): by Crooks' theorem the reverse work values are draws
 * from {@code p_f(W) e^{-W} / Z}, so forward and reverse work together are samples of two ensembles
 * of one density of states, {@code p_f}, at "inverse temperatures" 0 and 1. The non-parametric
 * maximum-likelihood density puts mass {@code p_j} on every observed work value (the
 * weighted-histogram equations of Ferrenberg &amp; Swendsen with one bin per sample):
 * <pre>  p_j ∝ 1 / (N_f + N_r e^{f - W_j}),   e^{-f} = Σ_j p_j e^{-W_j},</pre>
 * and the Jarzynski equality on that density gives {@code log(Z_1/Z_0) = log Σ_j p_j e^{-W_j}} (eq. 16).
 * Work values are in Habeck's sign convention here, so a reverse value enters as {@code -wR}. At its
 * fixed point this is the two-state MBAR estimate, which coincides with BAR; the self-consistency
 * equation for f is solved directly, by the same safeguarded Newton iteration ({@link IncreasingRoot}).
 */
public final class WorkHistogram {
    private final double[] work;
    private final double[] logP;
    private final double logRatio;

    private WorkHistogram(double[] work, double[] logP, double logRatio) {
        this.work = work;
        this.logP = logP;
        this.logRatio = logRatio;
    }

    /** Solves the histogram equations for forward work {@code wF} and reverse work {@code wR} (pymbar convention). */
    public static WorkHistogram of(double[] wF, double[] wR) {
        Bar.requireWork("forward", wF);
        Bar.requireWork("reverse", wR);
        Bar.requireOverlap(wF, wR);
        return solve(wF, wR);
    }

    /**
     * The histogram equations for work already checked: bootstrap resamples of overlapping work may
     * miss the few values where the two sets meet, and are still solvable.
     */
    static WorkHistogram solve(double[] wF, double[] wR) {
        int nf = wF.length;
        int nr = wR.length;
        double[] w = new double[nf + nr];
        System.arraycopy(wF, 0, w, 0, nf);
        for (int i = 0; i < nr; i++) {
            w[nf + i] = -wR[i];
        }
        double logNf = Math.log(nf);
        double logNr = Math.log(nr);
        // h(f) = f + LSE_j(-W_j - d_j(f)) - LSE_j(-d_j(f)), d_j = log(N_f + N_r e^{f - W_j}); h increases in f.
        // With t_j = f - W_j it is LSE_j(-log(N_f e^{-t_j} + N_r)) - LSE_j(-log(N_f + N_r e^{t_j})), which keeps
        // its precision when f and W_j are large: f + (-W_j - d_j) cancels catastrophically at |W| ~ 1e15.
        double lo = -LogSpace.logSumExp(negate(w)) - 50 - Math.abs(logNf - logNr);
        double hi = lo + 100 + 2 * Math.abs(logNf - logNr);
        double f = IncreasingRoot.solve("the histogram estimator's self-consistency equation",
                x -> self(w, logNf, logNr, x), lo, hi);
        double[] logP = new double[w.length];
        for (int j = 0; j < w.length; j++) {
            logP[j] = -LogSpace.logAddExp(logNf, logNr + f - w[j]);
        }
        double norm = LogSpace.logSumExp(logP);
        for (int j = 0; j < w.length; j++) {
            logP[j] -= norm;
        }
        return new WorkHistogram(w, logP, -f);
    }

    /** {h(f), h'(f)} of the self-consistency equation. */
    private static double[] self(double[] w, double logNf, double logNr, double f) {
        int n = w.length;
        double[] a = new double[n];
        double[] c = new double[n];
        double[] s = new double[n];
        for (int j = 0; j < n; j++) {
            double t = f - w[j];
            // a_j = f - W_j - d_j, c_j = -d_j, s_j = N_r e^{t_j} / (N_f + N_r e^{t_j}) = ∂d_j/∂f
            a[j] = -LogSpace.logAddExp(logNf - t, logNr);
            c[j] = -LogSpace.logAddExp(logNf, logNr + t);
            s[j] = Math.exp(logNr + t + c[j]);
        }
        double lseA = LogSpace.logSumExp(a);
        double lseC = LogSpace.logSumExp(c);
        double slope = 1 - LogSpace.weightedMean(a, s) + LogSpace.weightedMean(c, s);
        return new double[] {lseA - lseC, Math.max(slope, Double.MIN_NORMAL)};
    }

    private static double[] negate(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = -v[i];
        }
        return out;
    }

    /** {@code log(Z_1/Z_0)}. */
    public double logRatio() {
        return logRatio;
    }

    /** The pooled work values (Habeck's sign convention: forward values, then minus the reverse ones). */
    public double[] work() {
        return work.clone();
    }

    /** Log masses of the non-parametric forward work density on {@link #work()}. */
    public double[] logMasses() {
        return logP.clone();
    }
}
