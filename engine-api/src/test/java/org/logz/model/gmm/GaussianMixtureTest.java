package org.logz.model.gmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.kernel.HmcSettings;
import org.logz.kernel.HmcStepSizes;
import org.logz.problem.Problem;

/** The Gaussian mixture's closed form, gradient and spec, and the HMC settings and step-size rule (DESIGN §5). */
class GaussianMixtureTest {
    /** In one dimension the closed form is the trapezoid sum of f over a fine grid. */
    @Test
    void logZIsTheIntegralOfF() {
        GaussianMixture m = new GaussianMixture(1, 5, 0.8, 0.3, 0.35, 2, HmcSettings.defaults());
        double h = 1e-4;
        double sum = 0;
        double[] x = new double[1];
        for (double v = -20; v <= 20; v += h) {
            x[0] = v;
            sum += Math.exp(m.logDensity(1, x, null)) * h;
        }
        assertEquals(Math.log(sum), m.logZ(), 1e-8);
        assertEquals(0.5 * Math.log(2 * Math.PI * 4), m.logZ0(), 1e-15);
    }

    @Test
    void gradientMatchesFiniteDifferences() {
        GaussianMixture m = new GaussianMixture(4, 3, 1, 0.6, 0.3, 2, HmcSettings.defaults());
        double[][] points = {{0.1, -0.2, 0.3, 0.4}, {1.5, 1.5, 1.4, 1.6}, {-1.4, -1.5, -1.6, -1.5}, {0, 0, 0, 0}};
        for (double beta : new double[] {0, 0.3, 1}) {
            for (double[] x : points) {
                double[] grad = new double[4];
                m.logDensity(beta, x, grad);
                for (int i = 0; i < 4; i++) {
                    double h = 1e-6;
                    double[] up = x.clone();
                    double[] down = x.clone();
                    up[i] += h;
                    down[i] -= h;
                    double fd = (m.logDensity(beta, up, null) - m.logDensity(beta, down, null)) / (2 * h);
                    assertEquals(fd, grad[i], 1e-6 * (1 + Math.abs(fd)), "β " + beta + ", coordinate " + i);
                }
                assertEquals(m.logDensity(1, x, null) - m.logDensity(0, x, null), m.slope(beta, x), 1e-12);
            }
        }
    }

    @Test
    void exactSamplesHaveTheComponentsMasses() {
        GaussianMixture m = GaussianMixture.defaults();
        int n = 20_000;
        float[] x = m.exactTargetSamples(n, 4).orElseThrow();
        int first = 0;
        for (int r = 0; r < n; r++) {
            double s = 0;
            for (int i = 0; i < m.dimension(); i++) {
                s += x[r * m.dimension() + i];
            }
            first += s > 0 ? 1 : 0;
        }
        double p = 1 / (1 + Math.pow(0.7, m.dimension()));
        assertEquals(p, first / (double) n, 5 * Math.sqrt(p * (1 - p) / n));
    }

    @Test
    void specsParseAndBadOnesAreRefusedWithOneMessage() {
        GmmProblem p = (GmmProblem) Problem.parse("gmm:d=3,sep=4,step=0.05,jitter=off,leapfrog=7");
        assertEquals(3, p.model().dimension());
        assertEquals(new HmcSettings(7, 0.05, false, 0.65, false), p.model().hmc());
        assertEquals(GaussianMixture.defaults(), ((GmmProblem) Problem.parse("gmm")).model());
        assertEquals(new HmcSettings(10, 0.3, true, 0.8, true),
                ((GmmProblem) Problem.parse("gmm:step=auto:0.3,accept=0.8")).model().hmc());
        assertTrue(p.independentChains(null), "a fixed step size splits");
        for (String bad : new String[] {"gmm:k=3", "gmm:d=0", "gmm:d=2.5", "gmm:w=1", "gmm:s1=0", "gmm:sep=-1",
                "gmm:step=fast", "gmm:step=0", "gmm:leapfrog=0", "gmm:accept=1", "gmm:jitter=yes", "gmm:d",
                "gmm:s0=nan", "gmm:d=10,d=5", "gmm:,", "gmm:d=3,"}) {
            UserException e = assertThrows(UserException.class, () -> Problem.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--model " + bad), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void stepSizesFollowTheRuleByTemperatureAndSeed() {
        HmcStepSizes s = new HmcStepSizes(new HmcSettings(10, 0.1, true, 0.65, true));
        assertEquals(0.1, s.stepSize(1, 0.5));
        s.update(1, 0.5, 0.1, 90, 100);
        double next = 0.1 * Math.exp(0.9 - 0.65);
        assertEquals(next, s.stepSize(1, 0.5), 1e-15);
        assertEquals(next, s.stepSize(1, 0.6), 1e-15, "a new β starts from the nearest one's");
        assertEquals(0.1, s.stepSize(2, 0.5), "another run starts afresh");
        for (int i = 0; i < 2 * HmcStepSizes.FREEZE; i++) {
            s.update(1, 0.5, s.stepSize(1, 0.5), 60, 100);
        }
        double frozen = s.stepSize(1, 0.5);
        assertEquals(0.1 * Math.exp(0.25 - 0.05 * (HmcStepSizes.FREEZE - 1)), frozen, 1e-12 * frozen, "frozen after FREEZE updates");
        assertEquals(HmcSettings.MIN_STEP, HmcStepSizes.next(1e-6, 0, 10, 0.65));
        HmcStepSizes fixed = new HmcStepSizes(new HmcSettings(10, 0.1, false, 0.65, true));
        fixed.update(1, 0.5, 0.1, 0, 100);
        assertEquals(0.1, fixed.stepSize(1, 0.5));
    }
}
