package org.logz.estimate.work;

import org.logz.numeric.LogSpace;

/**
 * Bennett's acceptance ratio (Bennett 1976; Shirts et al., PRL 91, 140601, 2003; Habeck 2017 eq. 14)
 * with unequal numbers of forward and reverse work values, in pymbar's convention: {@code wF} holds
 * {@code u_1(x) - u_0(x)} for x from state 0, {@code wR} holds {@code u_0(x) - u_1(x)} for x from state
 * 1 (u = -log f, summed along a path for annealing), and {@code ΔF = f_1 - f_0 = -log(Z_1/Z_0)} solves
 * <pre>  Σ_F 1/(1 + exp(M + wF - ΔF)) = Σ_R 1/(1 + exp(-M + wR + ΔF)),   M = log(T_F/T_R).</pre>
 * The left side minus the right, in log space, increases strictly with ΔF; it is solved by Newton
 * steps kept inside a bracket (bisection when a step would leave it). The standard error is
 * pymbar's {@code uncertainty_method='BAR'} asymptotic formula.
 */
public final class Bar {
    /** @param deltaF {@code f_1 - f_0}, {@code stdErr} its asymptotic standard error */
    public record Result(double deltaF, double stdErr) {
        /** {@code log(Z_1/Z_0) = -ΔF}. */
        public double logRatio() {
            return -deltaF;
        }
    }

    private static final double TOLERANCE = 1e-13;

    private Bar() {
    }

    public static Result solve(double[] wF, double[] wR) {
        requireWork("forward", wF);
        requireWork("reverse", wR);
        double m = Math.log((double) wF.length / wR.length);
        double lo = Math.min(min(wF), -max(wR)) - Math.abs(m) - 1.0;
        double hi = Math.max(max(wF), -min(wR)) + Math.abs(m) + 1.0;
        // g(lo) < 0 < g(hi): widen until the bracket holds (it always can; g runs from -∞ to +∞)
        while (value(wF, wR, m, lo)[0] > 0) {
            lo -= 2 * (hi - lo);
        }
        while (value(wF, wR, m, hi)[0] < 0) {
            hi += 2 * (hi - lo);
        }
        double x = 0.5 * (lo + hi);
        for (int iteration = 0; iteration < 200; iteration++) {
            double[] g = value(wF, wR, m, x);
            if (g[0] == 0) {
                break;
            }
            if (g[0] < 0) {
                lo = x;
            } else {
                hi = x;
            }
            double next = x - g[0] / g[1];
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            boolean converged = Math.abs(next - x) <= TOLERANCE * Math.max(1.0, Math.abs(x));
            x = next;
            if (converged || hi - lo <= TOLERANCE * Math.max(1.0, Math.abs(x))) {
                break;
            }
        }
        return new Result(x, stdErr(wF, wR, m, x));
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
        double slope = 0;
        for (double l : logF) {
            slope += Math.exp(l - lseF) * (1 - Math.exp(l));
        }
        for (double l : logR) {
            slope += Math.exp(l - lseR) * (1 - Math.exp(l));
        }
        return new double[] {lseF - lseR, Math.max(slope, Double.MIN_NORMAL)};
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

    static void requireWork(String which, double[] w) {
        if (w.length == 0) {
            throw new IllegalArgumentException("no " + which + " work values");
        }
        for (int i = 0; i < w.length; i++) {
            if (!Double.isFinite(w[i])) {
                throw new IllegalArgumentException(which + " work value " + (i + 1) + " is " + w[i]
                        + "; work values must be finite");
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
