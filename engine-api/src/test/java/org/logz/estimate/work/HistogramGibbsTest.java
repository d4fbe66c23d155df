package org.logz.estimate.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.random.Philox;

class HistogramGibbsTest {
    /**
     * Two bins hold the forward and reverse work, so the posterior of the mass θ of the first is one-dimensional:
     * {@code p(θ) ∝ θ^{H_1-1} (1-θ)^{H_2-1} (θ e^{-E_1} + (1-θ) e^{-E_2})^{-N_r}} under the scale-free prior, and
     * {@code log(Z_1/Z_0) = log(θ e^{-E_1} + (1-θ) e^{-E_2})}. The Gibbs draws against that posterior by quadrature.
     */
    @Test
    void samplesTheTwoBinPosteriorComputedByQuadrature() {
        // Habeck's energies 0 and 1.5: forward 30 and 10, reverse 12 and 8 (pymbar's reverse work is minus them)
        double[] wF = new double[40];
        java.util.Arrays.fill(wF, 30, 40, 1.5);
        double[] wR = new double[20];
        java.util.Arrays.fill(wR, 12, 20, -1.5);
        WorkHistogram ml = WorkHistogram.solve(wF, wR, 1.5);
        double[] e = ml.energies();
        assertEquals(2, e.length);
        assertEquals(0.75, e[0], 0);
        double[] h = ml.counts();
        int n = 400_000;
        double mass = 0;
        double first = 0;
        double second = 0;
        for (int i = 0; i < n; i++) {
            double theta = (i + 0.5) / n;
            double mix = theta * Math.exp(-e[0]) + (1 - theta) * Math.exp(-e[1]);
            double w = Math.exp((h[0] - 1) * Math.log(theta) + (h[1] - 1) * Math.log(1 - theta) - 20 * Math.log(mix));
            double y = Math.log(mix);
            mass += w;
            first += w * y;
            second += w * y * y;
        }
        double mean = first / mass;
        double sd = Math.sqrt(second / mass - mean * mean);
        HistogramGibbs.Posterior p = HistogramGibbs.sample(ml, new HistogramGibbs.Settings(1.5, 60_000, 1000), 5);
        double mcse = p.sd() / Math.sqrt(p.ess());
        System.out.printf(Locale.ROOT, "two bins: quadrature %.5f ± %.5f, Gibbs %.5f ± %.5f (ESS %.0f)%n", mean, sd,
                p.mean(), p.sd(), p.ess());
        assertEquals(mean, p.mean(), 4 * mcse);
        assertEquals(sd, p.sd(), 0.02 * sd);
        assertTrue(p.lower() < p.median() && p.median() < p.upper());
    }

    /**
     * Work that satisfies Crooks exactly (forward N(μ, σ²), Habeck's reverse N(μ - σ², σ²), log Z = σ²/2 - μ): over 200
     * replicates the 95% intervals cover log Z about as often as they say and the z-scores of the posterior mean
     * against its standard deviation have RMS in the calibration band.
     */
    @Test
    void intervalsCoverTheExactAnswer() {
        double mu = 3;
        double sigma = 1.5;
        double exact = sigma * sigma / 2 - mu;
        int replicates = 200;
        int covered = 0;
        double squares = 0;
        for (int r = 0; r < replicates; r++) {
            double[] wF = normals(60, mu, sigma, 2L * r);
            double[] back = normals(60, mu - sigma * sigma, sigma, 2L * r + 1);
            double[] wR = new double[back.length];
            for (int i = 0; i < back.length; i++) {
                wR[i] = -back[i];
            }
            HistogramGibbs.Posterior p = HistogramGibbs.sample(WorkHistogram.of(wF, wR),
                    new HistogramGibbs.Settings(0, 500, 100), r);
            covered += p.lower() <= exact && exact <= p.upper() ? 1 : 0;
            double z = (p.mean() - exact) / p.sd();
            squares += z * z;
        }
        double coverage = (double) covered / replicates;
        double rms = Math.sqrt(squares / replicates);
        System.out.printf(Locale.ROOT, "Crooks Gaussian work: 95%% intervals cover %.3f, RMS z %.2f%n", coverage, rms);
        // 0.95 ± 3 binomial standard errors of 200 replicates
        assertTrue(Math.abs(coverage - 0.95) <= 3 * Math.sqrt(0.95 * 0.05 / replicates), "coverage " + coverage);
        assertTrue(rms >= 0.7 && rms <= 1.5, "RMS z " + rms);
    }

    /** With well-overlapping work the posterior sits on BAR, its spread on BAR's standard error. */
    @Test
    void agreesWithBarWhereTheWorkOverlaps() {
        double[] wF = normals(1000, 1, 1, 91);
        double[] back = normals(1000, 0, 1, 92);
        double[] wR = new double[back.length];
        for (int i = 0; i < back.length; i++) {
            wR[i] = -back[i];
        }
        Bar.Result bar = Bar.solve(wF, wR);
        HistogramGibbs.Posterior p = HistogramGibbs.sample(WorkHistogram.of(wF, wR), HistogramGibbs.Settings.DEFAULT, 3);
        assertEquals(bar.logRatio(), p.mean(), 0.2 * p.sd());
        assertEquals(1, p.sd() / bar.stdErr(), 0.2);
    }

    private static double[] normals(int n, double mean, double sd, long seed) {
        double[] out = new double[n];
        int[] w = new int[4];
        for (int i = 0; i < n; i++) {
            Philox.block(seed, i, 0, 0, 90, w);
            double r = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(w[0], w[1])));
            out[i] = mean + sd * r * Math.cos(2 * Math.PI * Philox.toUniformDouble(w[2], w[3]));
        }
        return out;
    }
}
