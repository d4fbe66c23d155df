package org.logz.estimate.work;

import java.util.Locale;

import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.numeric.IncreasingRoot;
import org.logz.numeric.LogSpace;

/**
 * Bennett's acceptance ratio (Bennett 1976; Shirts et al., PRL 91, 140601, 2003; Habeck 2017 eq. 14)
 * with unequal numbers of forward and reverse work values, in pymbar's convention: {@code wF} holds
 * {@code u_1(x) - u_0(x)} for x from state 0, {@code wR} holds {@code u_0(x) - u_1(x)} for x from state
 * 1 (u = -log f, summed along a path for annealing), and {@code ΔF = f_1 - f_0 = -log(Z_1/Z_0)} solves
 * <pre>  Σ_F 1/(1 + exp(M + wF - ΔF)) = Σ_R 1/(1 + exp(-M + wR + ΔF)),   M = log(T_F/T_R).</pre>
 * The left side minus the right, in log space, increases strictly with ΔF; {@link IncreasingRoot}
 * solves it. The standard error is pymbar's {@code uncertainty_method='BAR'} asymptotic formula; it
 * means something only where the two work distributions overlap, which {@link Result#overlap()}
 * measures.
 */
public final class Bar {
    /**
     * Largest work magnitude accepted: the cumulant estimators read fourth central moments of the work,
     * which overflow float64 beyond about 1e77; 1e75 leaves room for the sums.
     */
    public static final double MAX_WORK = 1e75;

    /**
     * @param deltaF  {@code f_1 - f_0}
     * @param stdErr  its asymptotic standard error
     * @param overlap the smaller off-diagonal entry of the two-state MBAR overlap matrix at the solution
     *                (pymbar's {@code compute_overlap}): the probability that a sample of one state is
     *                attributed to the other, 1/2 for identical states, 0 for disjoint ones
     */
    public record Result(double deltaF, double stdErr, double overlap) {
        /** {@code log(Z_1/Z_0) = -ΔF}. */
        public double logRatio() {
            return -deltaF;
        }
    }

    /**
     * Below this overlap BAR and its standard error are unreliable: the least overlap between
     * neighbouring states that Klimovich, Shirts &amp; Mobley (J. Comput. Aided Mol. Des. 29, 397, 2015)
     * recommend for MBAR and BAR.
     */
    public static final double MIN_OVERLAP = 0.03;

    private Bar() {
    }

    /**
     * @throws EstimationException when the two work distributions do not overlap at all
     *                                               ({@link #requireOverlap})
     */
    public static Result solve(double[] wF, double[] wR) {
        requireWork("forward", wF);
        requireWork("reverse", wR);
        requireOverlap(wF, wR);
        double m = Math.log((double) wF.length / wR.length);
        double lo = Math.min(min(wF), -max(wR)) - Math.abs(m) - 1.0;
        double hi = Math.max(max(wF), -min(wR)) + Math.abs(m) + 1.0;
        double x = IncreasingRoot.solve("BAR's equation", deltaF -> value(wF, wR, m, deltaF), lo, hi);
        return new Result(x, stdErr(wF, wR, m, x), overlap(wF, wR, x));
    }

    /**
     * The overlap matrix of two-state MBAR on the pooled samples, with {@code Δu_n = u_1 - u_0} (wF for
     * forward samples, -wR for reverse ones) and {@code t_n = ΔF - Δu_n}: the normalized weights are
     * {@code W_n0 = 1/(N_F + N_R e^{t_n})} and {@code W_n1 = e^{t_n} W_n0}, and
     * {@code O_01 = N_R Σ_n W_n0 W_n1}, {@code O_10 = N_F Σ_n W_n0 W_n1}; returns the smaller.
     */
    static double overlap(double[] wF, double[] wR, double deltaF) {
        double logNf = Math.log(wF.length);
        double logNr = Math.log(wR.length);
        double[] terms = new double[wF.length + wR.length];
        for (int n = 0; n < terms.length; n++) {
            double t = deltaF - (n < wF.length ? wF[n] : -wR[n - wF.length]);
            terms[n] = t - 2 * LogSpace.logAddExp(logNf, logNr + t);
        }
        return Math.exp(LogSpace.logSumExp(terms) + Math.min(logNf, logNr));
    }

    /** {g(ΔF), g'(ΔF)} with g = log Σ_F f(M + wF - ΔF) - log Σ_R f(-M + wR + ΔF), f the Fermi function. */
    private static double[] value(double[] wF, double[] wR, double m, double deltaF) {
        double[] logF = new double[wF.length];
        double[] logR = new double[wR.length];
        for (int i = 0; i < wF.length; i++) {
            logF[i] = -LogSpace.softplus(m + wF[i] - deltaF);
        }
        for (int i = 0; i < wR.length; i++) {
            logR[i] = -LogSpace.softplus(-m + wR[i] + deltaF);
        }
        double lseF = LogSpace.logSumExp(logF);
        double lseR = LogSpace.logSumExp(logR);
        // d/dΔF log Σ f(a - ΔF) = Σ f(1 - f) / Σ f, and the same with the opposite sign for the reverse side
        double slope = LogSpace.weightedMean(logF, oneMinusExp(logF)) + LogSpace.weightedMean(logR, oneMinusExp(logR));
        return new double[] {lseF - lseR, Math.max(slope, Double.MIN_NORMAL)};
    }

    /** {@code 1 - e^l} for each log Fermi value l, without cancellation where e^l is near 1. */
    private static double[] oneMinusExp(double[] logF) {
        double[] out = new double[logF.length];
        for (int i = 0; i < logF.length; i++) {
            out[i] = -Math.expm1(logF[i]);
        }
        return out;
    }

    /** pymbar's BAR uncertainty: (⟨f_F²⟩/⟨f_F⟩²)/T_F + (⟨f_R²⟩/⟨f_R⟩²)/T_R - (T_F + T_R)/(T_F T_R). */
    private static double stdErr(double[] wF, double[] wR, double m, double deltaF) {
        double c = m - deltaF;
        double[] f = moments(wF, c);
        double[] r = moments(wR, -c);
        double tF = wF.length;
        double tR = wR.length;
        double variance = f[1] / (f[0] * f[0]) / tF + r[1] / (r[0] * r[0]) / tR - (tF + tR) / (tF * tR);
        return Math.sqrt(Math.max(variance, 0.0));
    }

    /** {⟨f⟩, ⟨f²⟩} of f = 1/(1 + exp(w + shift)), scaled by a common factor that cancels in the ratio. */
    private static double[] moments(double[] w, double shift) {
        double[] log = new double[w.length];
        double[] twice = new double[w.length];
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < w.length; i++) {
            log[i] = -LogSpace.softplus(w[i] + shift);
            twice[i] = 2 * log[i];
            max = Math.max(max, log[i]);
        }
        double mean = Math.exp(LogSpace.logSumExp(log) - max) / w.length;
        double meanSquare = Math.exp(LogSpace.logSumExp(twice) - 2 * max) / w.length;
        return new double[] {mean, meanSquare};
    }

    /**
     * Refuses work whose forward values and negated reverse values lie in disjoint ranges: by Crooks'
     * theorem the two densities cross at ΔF, and with no sample near the crossing BAR's root can sit
     * anywhere in the gap and its standard error means nothing.
     */
    static void requireOverlap(double[] wF, double[] wR) {
        double loF = min(wF);
        double hiF = max(wF);
        double loR = -max(wR);
        double hiR = -min(wR);
        // ranges that touch to rounding (all work values equal but for an ulp, as when every chain runs the same
        // deterministic path) overlap
        double slack = 1e-9 * (1 + Math.max(Math.max(Math.abs(loF), Math.abs(hiF)), Math.max(Math.abs(loR), Math.abs(hiR))));
        if (hiF < loR - slack || hiR < loF - slack) {
            throw new EstimationException(String.format(Locale.ROOT, "the forward work "
                    + "values [%.6g, %.6g] and the negated reverse ones [%.6g, %.6g] do not overlap: BAR and the "
                    + "histogram estimator cannot place log(Z_1/Z_0) in the gap between them; anneal more slowly or use "
                    + "more chains", loF, hiF, loR, hiR));
        }
    }

    /** At least two finite work values of magnitude at most {@link #MAX_WORK}. */
    static void requireWork(String which, double[] w) {
        if (w.length < 2) {
            throw new UserException((w.length == 0 ? "no" : "only one") + " " + which + " work value"
                    + (w.length == 0 ? "s" : "") + "; the estimators need at least two for a standard error");
        }
        for (int i = 0; i < w.length; i++) {
            if (!Double.isFinite(w[i]) || Math.abs(w[i]) > MAX_WORK) {
                throw new UserException(which + " work value " + (i + 1) + " is " + w[i]
                        + "; work values must be finite and at most " + MAX_WORK + " in magnitude");
            }
        }
    }

    private static double min(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return m;
    }

    private static double max(double[] v) {
        double m = Double.NEGATIVE_INFINITY;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
    }
}
