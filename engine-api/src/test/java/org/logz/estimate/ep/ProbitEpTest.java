package org.logz.estimate.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.logz.base.EstimationException;
import org.logz.model.GpClassification;
import org.logz.model.gpc.GpcExact;
import org.logz.numeric.Cholesky;
import org.logz.numeric.Normal;

class ProbitEpTest {
    /** With independent cases every site is matched exactly: Z_EP = Π Φ(0) = 2^-n for any prior variances. */
    @Test
    void independentCasesAreExact() {
        double[] k = new double[16];
        for (int i = 0; i < 4; i++) {
            k[i * 4 + i] = 0.5 + 3 * i;
        }
        ProbitEp.Result r = ProbitEp.run(new GpClassification(k, new int[] {1, -1, -1, 1}, "diag"),
                ProbitEp.Settings.defaults());
        assertEquals(-4 * Math.log(2), r.logZ(), 1e-9);
    }

    /** On correlated n = 2 and 3 problems EP lands near the closed form (within 0.05 nats here). */
    @Test
    void closeToTheOrthantProbabilities() {
        Random random = new Random(3);
        for (int trial = 0; trial < 6; trial++) {
            GpClassification m = random(random, 2 + trial % 2, 0.5, 1.0);
            double exact = GpcExact.logZ(m);
            double ep = ProbitEp.run(m, ProbitEp.Settings.defaults()).logZ();
            System.out.printf(java.util.Locale.ROOT, "n=%d exact %.6f EP %.6f%n", m.size(), exact, ep);
            assertEquals(exact, ep, 0.05, "trial " + trial);
        }
    }

    /**
     * The implemented form of log Z_EP (Algorithm 3.6, finite with zero site precisions) equals
     * R&amp;W eq. 3.65 written out with the site means and variances (recovered from q), on a 25-case
     * problem whose K is well enough conditioned to invert (log ℓ = -0.5, log σ = 1).
     */
    @Test
    void logZMatchesEquation365() {
        GpClassification m = random(new Random(11), 25, -0.5, 1);
        ProbitEp.Result r = ProbitEp.run(m, ProbitEp.Settings.defaults());
        int n = m.size();
        double[] k = m.covariance();
        double[] sigma = r.covariance();
        double[] mu = r.mean();
        // recover the sites from q: Σ⁻¹ = K⁻¹ + S̃, so S̃ = Σ⁻¹ - K⁻¹ on the diagonal, ν̃ = Σ⁻¹ μ
        double[] sigmaInv = inverse(sigma, n);
        double[] kInv = inverse(k, n);
        double[] tau = new double[n];
        double[] nu = new double[n];
        for (int i = 0; i < n; i++) {
            tau[i] = sigmaInv[i * n + i] - kInv[i * n + i];
            for (int j = 0; j < n; j++) {
                nu[i] += sigmaInv[i * n + j] * mu[j];
            }
        }
        double[] kPlus = k.clone();
        double[] siteMean = new double[n];
        for (int i = 0; i < n; i++) {
            kPlus[i * n + i] += 1 / tau[i];
            siteMean[i] = nu[i] / tau[i];
        }
        double[] l = Cholesky.lower(kPlus, n);
        double logDet = 0;
        for (int i = 0; i < n; i++) {
            logDet += 2 * Math.log(l[i * n + i]);
        }
        double[] kPlusInv = inverse(kPlus, n);
        double quad = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                quad += siteMean[i] * kPlusInv[i * n + j] * siteMean[j];
            }
        }
        double expected = -0.5 * logDet - 0.5 * quad;
        for (int i = 0; i < n; i++) {
            double varCavity = 1 / (1 / sigma[i * n + i] - tau[i]);
            double meanCavity = varCavity * (mu[i] / sigma[i * n + i] - nu[i]);
            expected += Normal.logCdf(m.label(i) * meanCavity / Math.sqrt(1 + varCavity))
                    + 0.5 * Math.log(varCavity + 1 / tau[i])
                    + Math.pow(meanCavity - siteMean[i], 2) / (2 * (varCavity + 1 / tau[i]));
        }
        assertEquals(expected, r.logZ(), 1e-6);
        assertTrue(r.sweeps() > 1 && r.change() <= 1e-8);
    }

    /** A cap of one sweep on a correlated problem is reported as non-convergence, not as a number. */
    @Test
    void nonConvergenceIsAnError() {
        GpClassification m = random(new Random(2), 10, 1, 2);
        EstimationException e = assertThrows(EstimationException.class,
                () -> ProbitEp.run(m, new ProbitEp.Settings(0.8, 1e-8, 1)));
        assertTrue(e.getMessage().contains("did not converge in 1 sweeps"), e.getMessage());
    }

    /** A squared-exponential classifier of {@code n} cases in 3 features, labels from the first feature and noise. */
    static GpClassification random(Random random, int n, double logEll, double logSigma) {
        double[][] x = new double[n][3];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            for (int f = 0; f < 3; f++) {
                x[i][f] = random.nextGaussian();
            }
            y[i] = x[i][0] + 0.5 * random.nextGaussian() > 0 ? 1 : -1;
        }
        return GpClassification.squaredExponential(x, y, logEll, logSigma, "random " + n);
    }

    /** The inverse of a symmetric positive definite matrix through its Cholesky factor. */
    private static double[] inverse(double[] a, int n) {
        return Cholesky.inverse(Cholesky.lower(a, n), n);
    }
}
