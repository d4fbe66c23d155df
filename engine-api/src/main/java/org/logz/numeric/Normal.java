package org.logz.numeric;

/**
 * The standard normal distribution in float64: density, distribution function Φ and its logarithm,
 * accurate to a few ulps in the far tails where {@code 1 - Φ(-x)} would cancel. JDK-only.
 *
 * <p>For {@code x ≤ -3}, Φ(x) = φ(x)·M(x) with Mills' ratio written as Laplace's continued fraction
 * {@code M(x) = 1/(t + 1/(t + 2/(t + 3/(t + ...))))}, {@code t = -x}, evaluated by the modified Lentz
 * method (it converges fast for t ≥ 3). For {@code -3 < x < 3}, the everywhere-convergent series
 * {@code Φ(x) = 1/2 + φ(x) Σ_k x^(2k+1)/(2k+1)!!}, whose terms are positive for x > 0 and whose sum
 * only cancels mildly for x > -3. Above 3, {@code Φ(x) = 1 - Φ(-x)}.
 */
public final class Normal {
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    private Normal() {
    }

    /** {@code log φ(x)}. */
    public static double logPdf(double x) {
        return -0.5 * x * x - LOG_SQRT_2PI;
    }

    /** {@code φ(x)}. */
    public static double pdf(double x) {
        return Math.exp(logPdf(x));
    }

    /** {@code Φ(x)}. */
    public static double cdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x <= -3) {
            return Math.exp(logPdf(x)) * millsRatio(-x);
        }
        if (x < 3) {
            return 0.5 + pdf(x) * series(x);
        }
        return 1 - Math.exp(logPdf(x)) * millsRatio(x);
    }

    /** {@code log Φ(x)}, finite for every finite x (about {@code -x²/2} far below zero). */
    public static double logCdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x <= -3) {
            return logPdf(x) + Math.log(millsRatio(-x));
        }
        if (x < 3) {
            return Math.log(0.5 + pdf(x) * series(x));
        }
        return Math.log1p(-Math.exp(logPdf(x)) * millsRatio(x));
    }

    /**
     * {@code φ(x)/Φ(x)}, the inverse Mills ratio that the probit moments need (Rasmussen &amp; Williams
     * eq. 3.58), without overflow or 0/0 for very negative x, where it approaches {@code -x}.
     */
    public static double pdfOverCdf(double x) {
        if (x <= -3) {
            return 1 / millsRatio(-x);
        }
        return Math.exp(logPdf(x) - logCdf(x));
    }

    /** {@code Σ_k x^(2k+1)/(2k+1)!!} for |x| below 3 (about 60 terms at the edges). */
    private static double series(double x) {
        double term = x;
        double sum = x;
        double x2 = x * x;
        for (int k = 1; k < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); k++) {
            term *= x2 / (2 * k + 1);
            sum += term;
        }
        return sum;
    }

    /** Mills' ratio {@code (1 - Φ(t))/φ(t)} for t ≥ 3 by Laplace's continued fraction. */
    private static double millsRatio(double t) {
        if (Double.isInfinite(t)) {
            return 0;
        }
        // modified Lentz on b0 + a1/(b1 + a2/(b2 + ...)) with b_k = t, a_k = k; M = 1/(that)
        double tiny = 1e-300;
        double f = t;
        double c = f;
        double d = 0;
        for (int k = 1; k < 500; k++) {
            d = t + k * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = t + k / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1) < 1e-16) {
                break;
            }
        }
        return 1 / f;
    }
}
