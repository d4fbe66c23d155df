package org.logz.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NormalTest {
    /** Φ and log Φ against SciPy 1.10's norm.cdf and norm.logcdf, on both sides of every branch switch. */
    @Test
    void matchesSciPyToNearFullPrecision() {
        double[][] cases = {
                {-40, Double.NaN, -804.6084420137539},
                {-10, 7.61985302416047e-24, -53.23128515051248},
                {-5, 2.866515718791933e-07, -15.064998393988727},
                {-3.0000001, 0.0013498975884453205, -6.607726549820219},
                {-2.9999999, 0.0013498984748150013, -6.60772589320049},
                {-1, 0.15865525393145707, -1.841021645009264},
                {0, 0.5, -0.6931471805599453},
                {0.5, 0.6914624612740131, -0.3689464152886563},
                {2.9999999, 0.998650101525185, -0.0013508104085321639},
                {3.0000001, 0.9986501024115547, -0.001350809520964358},
                {5, 0.9999997133484281, -2.8665161296376305e-07},
                {8.5, 1.0, -9.479534822203251e-18}};
        for (double[] c : cases) {
            if (!Double.isNaN(c[1])) {
                assertEquals(c[1], Normal.cdf(c[0]), 1e-13 * c[1], "Φ(" + c[0] + ")");
            }
            assertEquals(c[2], Normal.logCdf(c[0]), 1e-12 * Math.abs(c[2]), "log Φ(" + c[0] + ")");
        }
    }

    /** φ/Φ is finite far in the lower tail, where it approaches -x, and agrees with the ratio elsewhere. */
    @Test
    void inverseMillsRatio() {
        assertEquals(1e4, Normal.pdfOverCdf(-1e4), 1e-3);
        for (double x : new double[] {-2.5, 0, 1.7}) {
            assertEquals(Normal.pdf(x) / Normal.cdf(x), Normal.pdfOverCdf(x), 1e-13);
        }
        assertEquals(Normal.pdf(-4) / Normal.cdf(-4), Normal.pdfOverCdf(-4), 1e-12);
    }
}
