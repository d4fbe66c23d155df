package org.logz.estimate.work;

import java.util.Arrays;

import org.logz.base.UserException;
import org.logz.numeric.IncreasingRoot;
import org.logz.numeric.LogSpace;

/**
 * The histogram estimator of Habeck (2017, §5.3): by Crooks' theorem the reverse work values are draws
 * from {@code p_f(W) e^{-W} / Z}, so forward and reverse work together are samples of two ensembles
 * of one density of states, {@code p_f}, at "inverse temperatures" 0 and 1. The maximum-likelihood density puts mass
 * {@code p_b} on bin b of energy E_b holding H_b of the pooled work values (the weighted-histogram equations of
 * Ferrenberg &amp; Swendsen):
 * <pre>  p_b ∝ H_b / (N_f + N_r e^{f - E_b}),   e^{-f} = Σ_b p_b e^{-E_b},</pre>
 * and the Jarzynski equality on that density gives {@code log(Z_1/Z_0) = log Σ_b p_b e^{-E_b}} (eq. 16). Binless
 * (eq. 15, {@link #of}) every work value is its own bin; at that fixed point this is the two-state MBAR estimate, which
 * coincides with BAR. Binned ({@link #binned}) the values fall in bins of one width, each at its centre, which differs
 * from BAR by the binning. Work values are in Habeck's sign convention here, so a reverse value enters as {@code -wR};
 * the self-consistency equation for f is solved directly, by a safeguarded Newton iteration ({@link IncreasingRoot}).
 */
public final class WorkHistogram {
    private final double[] energies;
    private final double[] counts;
    private final int forward;
    private final int reverse;
    private final double[] logP;
    private final double logRatio;

    private WorkHistogram(double[] energies, double[] counts, int forward, int reverse, double[] logP, double logRatio) {
        this.energies = energies;
        this.counts = counts;
        this.forward = forward;
        this.reverse = reverse;
        this.logP = logP;
        this.logRatio = logRatio;
    }

    /** Solves the binless histogram equations for forward work {@code wF} and reverse work {@code wR} (pymbar convention). */
    public static WorkHistogram of(double[] wF, double[] wR) {
        return binned(wF, wR, 0);
    }

    /**
     * The histogram equations on bins of width {@code width} from the smallest pooled value, each bin at its centre
     * with the number of values it holds (empty bins dropped); width 0 is binless.
     */
    public static WorkHistogram binned(double[] wF, double[] wR, double width) {
        Bar.requireWork("forward", wF);
        Bar.requireWork("reverse", wR);
        Bar.requireOverlap(wF, wR);
        WorkHistogram h = solve(wF, wR, width);
        if (width > 0 && h.energies.length < MIN_BINS) {
            throw new UserException(String.format(java.util.Locale.ROOT, "a bin width of %s puts the %d work values in "
                    + "%d bins; the density of states needs at least %d: use a narrower --bin-width or 0 (one per value)",
                    width, wF.length + wR.length, h.energies.length, MIN_BINS));
        }
        return h;
    }

    /** Fewest non-empty bins a binned density of states may have: with two, a log Z was 70 standard errors off. */
    public static final int MIN_BINS = 10;

    /**
     * The histogram equations for work already checked: bootstrap resamples of overlapping work may
     * miss the few values where the two sets meet, and are still solvable.
     */
    static WorkHistogram solve(double[] wF, double[] wR, double width) {
        if (!(width >= 0) || !Double.isFinite(width)) {
            throw new UserException("the histogram's bin width must be finite and at least 0, got " + width);
        }
        int nf = wF.length;
        int nr = wR.length;
        double[] w = new double[nf + nr];
        System.arraycopy(wF, 0, w, 0, nf);
        for (int i = 0; i < nr; i++) {
            w[nf + i] = -wR[i];
        }
        double[] energies;
        double[] counts;
        if (width == 0) {
            energies = w;
            counts = new double[w.length];
            Arrays.fill(counts, 1);
        } else {
            double[][] bins = bins(w, width);
            energies = bins[0];
            counts = bins[1];
        }
        double[] logH = new double[counts.length];
        for (int b = 0; b < counts.length; b++) {
            logH[b] = Math.log(counts[b]);
        }
        double logNf = Math.log(nf);
        double logNr = Math.log(nr);
        // h(f) = f + LSE_b(log H_b - E_b - d_b(f)) - LSE_b(log H_b - d_b(f)), d_b = log(N_f + N_r e^{f - E_b}); h
        // increases in f. With t_b = f - E_b it is LSE_b(log H_b - log(N_f e^{-t_b} + N_r)) - LSE_b(log H_b - log(N_f +
        // N_r e^{t_b})), which keeps its precision when f and E_b are large: f + (-E_b - d_b) cancels catastrophically
        // at |W| ~ 1e15.
        double[] start = new double[energies.length];
        for (int b = 0; b < start.length; b++) {
            start[b] = logH[b] - energies[b];
        }
        double lo = -LogSpace.logSumExp(start) - 50 - Math.abs(logNf - logNr);
        double hi = lo + 100 + 2 * Math.abs(logNf - logNr);
        double f = IncreasingRoot.solve("the histogram estimator's self-consistency equation",
                x -> self(energies, logH, logNf, logNr, x), lo, hi);
        double[] logP = new double[energies.length];
        for (int b = 0; b < energies.length; b++) {
            logP[b] = logH[b] - LogSpace.logAddExp(logNf, logNr + f - energies[b]);
        }
        double norm = LogSpace.logSumExp(logP);
        for (int b = 0; b < energies.length; b++) {
            logP[b] -= norm;
        }
        return new WorkHistogram(energies, counts, nf, nr, logP, -f);
    }

    /** {centres, counts} of the non-empty bins of {@code width} from the smallest value, in increasing order. */
    private static double[][] bins(double[] w, double width) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : w) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        if ((hi - lo) / width > 10_000_000) {
            throw new UserException(String.format(java.util.Locale.ROOT, "a bin width of %s over work from %.4g to %.4g "
                    + "makes more than 10^7 bins; use a wider bin or 0 (one per value)", width, lo, hi));
        }
        int n = (int) Math.floor((hi - lo) / width) + 1;
        double[] count = new double[n];
        for (double v : w) {
            count[Math.min(n - 1, (int) Math.floor((v - lo) / width))]++;
        }
        int used = 0;
        for (double c : count) {
            used += c > 0 ? 1 : 0;
        }
        double[] centres = new double[used];
        double[] counts = new double[used];
        int at = 0;
        for (int b = 0; b < n; b++) {
            if (count[b] > 0) {
                centres[at] = lo + (b + 0.5) * width;
                counts[at++] = count[b];
            }
        }
        return new double[][] {centres, counts};
    }

    /** {h(f), h'(f)} of the self-consistency equation. */
    private static double[] self(double[] e, double[] logH, double logNf, double logNr, double f) {
        int n = e.length;
        double[] a = new double[n];
        double[] c = new double[n];
        double[] s = new double[n];
        for (int b = 0; b < n; b++) {
            double t = f - e[b];
            // a_b = log H_b + f - E_b - d_b, c_b = log H_b - d_b, s_b = N_r e^{t_b} / (N_f + N_r e^{t_b}) = ∂d_b/∂f
            a[b] = logH[b] - LogSpace.logAddExp(logNf - t, logNr);
            c[b] = logH[b] - LogSpace.logAddExp(logNf, logNr + t);
            s[b] = Math.exp(logNr + t - LogSpace.logAddExp(logNf, logNr + t));
        }
        double lseA = LogSpace.logSumExp(a);
        double lseC = LogSpace.logSumExp(c);
        double slope = 1 - LogSpace.weightedMean(a, s) + LogSpace.weightedMean(c, s);
        return new double[] {lseA - lseC, Math.max(slope, Double.MIN_NORMAL)};
    }

    /** {@code log(Z_1/Z_0)}. */
    public double logRatio() {
        return logRatio;
    }

    /** The bins' energies (binless: the pooled work values, forward then minus the reverse ones; Habeck's sign). */
    public double[] energies() {
        return energies.clone();
    }

    /** How many pooled work values each bin holds (binless: one each). */
    public double[] counts() {
        return counts.clone();
    }

    /** Forward work values, N_f. */
    public int forward() {
        return forward;
    }

    /** Reverse work values, N_r. */
    public int reverse() {
        return reverse;
    }

    /** Log masses of the forward work density on the bins. */
    public double[] logMasses() {
        return logP.clone();
    }
}
