package org.logz.estimate.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.logz.estimate.Method;
import org.logz.model.GpClassification;
import org.logz.model.gpc.GpcExact;
import org.logz.numeric.Normal;

class CorrectedEpTest {
    /** One case has no pair to correct, and EP is exact there: log Φ(0). */
    @Test
    void oneCaseIsExactAndUncorrected() {
        GpClassification m = new GpClassification(new double[] {2.5}, new int[] {1}, "one");
        CorrectedEp c = CorrectedEp.of(m, ProbitEp.run(m, ProbitEp.Settings.defaults()));
        assertEquals(0, c.order3() + c.order4(), 0);
        assertEquals(-Math.log(2), c.logZ(), 1e-12);
        assertEquals(Method.EP_CORRECTED, c.method());
    }

    /**
     * A prior variance below the arithmetic's reach (K = 1e-200·I, the hostile review's case, which printed NaN) pins
     * every f_i at 0: nothing to correct, and EP's exact 2^-n stands.
     */
    @Test
    void vanishingPriorVarianceIsNotCorrected() {
        GpClassification m = new GpClassification(new double[] {1e-200, 0, 0, 1e-200}, new int[] {1, -1}, "tiny");
        CorrectedEp c = CorrectedEp.of(m, ProbitEp.run(m, ProbitEp.Settings.defaults()));
        assertEquals(-2 * Math.log(2), c.logZ(), 1e-12);
        GpClassification correlated = new GpClassification(new double[] {1e-170, 5e-171, 5e-171, 1e-170},
                new int[] {1, 1}, "tiny correlated");
        assertEquals(-2 * Math.log(2), CorrectedEp.of(correlated, ProbitEp.run(correlated,
                ProbitEp.Settings.defaults())).logZ(), 1e-12);
    }

    /** K + I singular to working precision has no orthant probability to approximate: refused as the model loads. */
    @Test
    void singularKPlusIdentityIsRefused() {
        org.logz.base.UserException e = org.junit.jupiter.api.Assertions.assertThrows(org.logz.base.UserException.class,
                () -> new GpClassification(new double[] {1, 2, 2, 1}, new int[] {1, -1}, "neg"));
        assertTrue(e.getMessage().contains("singular to working precision"), e.getMessage());
    }

    /**
     * The tilted marginal's cumulants against a quadrature of {@code N(f; m, v) Φ(y f)}: a_3 and a_4 in units of the
     * tilted marginal's own mean and standard deviation are its standardized third and fourth cumulants.
     */
    @Test
    void hermiteCoefficientsMatchQuadrature() {
        double[][] cases = {{0.3, 1.2, 1}, {-1.5, 0.7, 1}, {2.0, 3.0, -1}, {-4.0, 2.0, 1}, {0.0, 10.0, -1}};
        for (double[] c : cases) {
            double m = c[0];
            double v = c[1];
            int y = (int) c[2];
            double[] moments = new double[5];
            int points = 400_000;
            double lo = m - 12 * Math.sqrt(v);
            double step = 24 * Math.sqrt(v) / points;
            for (int i = 0; i <= points; i++) {
                double f = lo + i * step;
                double w = Math.exp(-(f - m) * (f - m) / (2 * v)) * Normal.cdf(y * f) * (i == 0 || i == points ? 0.5 : 1);
                for (int p = 0; p < 5; p++) {
                    moments[p] += w * Math.pow(f, p);
                }
            }
            double mean = moments[1] / moments[0];
            double[] central = new double[5];
            for (int i = 0; i <= points; i++) {
                double f = lo + i * step;
                double w = Math.exp(-(f - m) * (f - m) / (2 * v)) * Normal.cdf(y * f) * (i == 0 || i == points ? 0.5 : 1);
                for (int p = 2; p < 5; p++) {
                    central[p] += w * Math.pow(f - mean, p) / moments[0];
                }
            }
            double s = Math.sqrt(central[2]);
            double skew = central[3] / (s * s * s);
            double excess = central[4] / (s * s * s * s) - 3;
            double[] a = CorrectedEp.hermite(m, v, y, mean, s);
            String at = String.format(Locale.ROOT, "m=%.1f v=%.1f y=%d", m, v, y);
            assertEquals(skew, a[0], 1e-7, "a_3 at " + at);
            assertEquals(excess, a[1], 1e-7, "a_4 at " + at);
        }
    }

    /** The asymptotic series and the polynomials meet where the series takes over. */
    @Test
    void asymptoticDerivativesJoinThePolynomials() {
        double z = -19.999;
        double[] poly = CorrectedEp.logCdfDerivatives(z, Normal.pdfOverCdf(z));
        double[] series = CorrectedEp.logCdfDerivatives(-20.001, Normal.pdfOverCdf(-20.001));
        assertEquals(poly[0], series[0], 1e-3 * Math.abs(poly[0]));
        assertEquals(poly[1], series[1], 2e-2 * Math.abs(poly[1]));
    }

    /**
     * On correlated problems of 2 and 3 cases (the closed-form orthant probabilities of {@link GpcExact}) the corrected
     * evidence is closer to the exact one than EP's on every trial, and on average by more than a factor of 10.
     */
    @Test
    void closerThanEpToTheOrthantProbabilities() {
        Random random = new Random(3);
        double epError = 0;
        double correctedError = 0;
        for (int trial = 0; trial < 12; trial++) {
            GpClassification m = ProbitEpTest.random(random, 2 + trial % 2, 0.5, 1.0 + (trial % 3));
            double exact = GpcExact.logZ(m);
            ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
            CorrectedEp c = CorrectedEp.of(m, ep);
            System.out.printf(Locale.ROOT, "n=%d exact %.7f EP %+.2e corrected %+.2e%n", m.size(), exact,
                    ep.logZ() - exact, c.logZ() - exact);
            assertTrue(Math.abs(c.logZ() - exact) < Math.abs(ep.logZ() - exact), "trial " + trial);
            epError += Math.abs(ep.logZ() - exact);
            correctedError += Math.abs(c.logZ() - exact);
        }
        assertTrue(correctedError < epError / 10, "mean error " + correctedError / 12 + " against EP's " + epError / 12);
    }
}
