package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.estimate.ep.ProbitEp;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.GpClassification;
import org.logz.model.gpc.TemperedGpc;
import org.logz.numeric.Cholesky;
import org.logz.numeric.Normal;

/**
 * The contract of GP classification's tempered kernel (ARM paper eq. 11, elliptical slice sampling):
 * base draws with the moments of the prior and of EP's q (EP's own posterior, computed independently),
 * {@code log f_β = β ℓ} against a dense evaluation of {@code log N(x; 0, K) + Σ log Φ(y_i x_i) - log q(x)},
 * transitions that keep a properly weighted sample of {@code p_β} properly weighted, the level
 * evaluations, and agreement with the scalar reference to float rounding.
 */
public abstract class GpcAnnealingKernelContract extends BackendTest {
    private static final int PARTICLES = 6000;

    private static TemperedGpc fromEp() {
        GpClassification m = GpcKernelContract.problem();
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        return TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu());
    }

    /** Sample mean and covariance of every pair agree with (mean, cov) within 5 standard errors. */
    private static void assertMoments(float[] x, int n, double[] mean, double[] cov, String what) {
        int count = x.length / n;
        for (int i = 0; i < n; i++) {
            double m = 0;
            for (int r = 0; r < count; r++) {
                m += x[r * n + i] / (double) count;
            }
            assertEquals(mean[i], m, 5 * Math.sqrt(cov[i * n + i] / count), what + ": mean of x_" + i);
            for (int j = 0; j <= i; j++) {
                double c = 0;
                for (int r = 0; r < count; r++) {
                    c += (x[r * n + i] - mean[i]) * (x[r * n + j] - mean[j]) / count;
                }
                double se = Math.sqrt((cov[i * n + i] * cov[j * n + j] + cov[i * n + j] * cov[i * n + j]) / count);
                assertEquals(cov[i * n + j], c, 5 * se, what + ": covariance of x_" + i + ", x_" + j);
            }
        }
    }

    @Test
    void baseDrawsHaveThePriorsAndEpsMoments() {
        GpClassification m = GpcKernelContract.problem();
        int n = m.size();
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        TemperedGpc[] paths = {TemperedGpc.fromPrior(m), fromEp()};
        double[][] means = {new double[n], ep.mean()};
        double[][] covariances = {m.covariance(), ep.covariance()};
        for (int p = 0; p < 2; p++) {
            try (TemperedKernel kernel = Kernels.tempered(backend, paths[p]);
                 ParticleMatrix x = backend.matrix(PARTICLES, n)) {
                kernel.sampleBase(x, PARTICLES, 5, 0);
                assertMoments(backend.download(x, PARTICLES), n, means[p], covariances[p], paths[p].description());
            }
        }
    }

    /** ℓ from the prior is Σ log Φ(y_i x_i); from q, {@code log N(x; 0, K) + Σ log Φ(y_i x_i) - log q(x)}. */
    @Test
    void logDensityIsBetaTimesTheLogLikelihoodRatio() {
        GpClassification m = GpcKernelContract.problem();
        int n = m.size();
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        float[] x = new float[3 * n];
        for (int k = 0; k < x.length; k++) {
            x[k] = (float) (1.7 * Math.sin(3.1 * k + 0.4));
        }
        double[] kLower = Cholesky.lower(m.covariance(), n);
        double[] qLower = Cholesky.lower(ep.covariance(), n);
        TemperedGpc[] paths = {TemperedGpc.fromPrior(m), fromEp()};
        for (int p = 0; p < 2; p++) {
            try (TemperedKernel kernel = Kernels.tempered(backend, paths[p]); ParticleMatrix xm = backend.matrix(4, n);
                 ParticleVector out = backend.vector(4)) {
                backend.upload(x, 3, xm);
                backend.fill(out, 0, 4, -7.0);
                kernel.logDensity(xm, 3, 0.3, out);
                double[] got = backend.download(out, 4);
                assertEquals(-7.0, got[3], "rows beyond count keep their values");
                for (int r = 0; r < 3; r++) {
                    double[] row = new double[n];
                    double likelihood = 0;
                    for (int i = 0; i < n; i++) {
                        row[i] = x[r * n + i];
                        likelihood += Normal.logCdf(m.label(i) * row[i]);
                    }
                    double ell = p == 0 ? likelihood : logGaussian(row, new double[n], kLower, n) + likelihood
                            - logGaussian(row, ep.mean(), qLower, n);
                    assertEquals(0.3 * ell, got[r], 1e-7 * (1 + Math.abs(ell)), paths[p].description() + ", row " + r);
                }
                backend.fill(out, 0, 4, 1.0);
                kernel.anneal(xm, 3, 0.3, 0.8, out, 0, 1, 1);
                double[] inc = backend.download(out, 3);
                for (int r = 0; r < 3; r++) {
                    assertEquals(1.0 + 0.5 / 0.3 * got[r], inc[r], 1e-9 * (1 + Math.abs(inc[r])), "increment of row " + r);
                }
                assertArrayEquals(Arrays.copyOf(x, 3 * n), backend.download(xm, 3), "no transition: states unchanged");
            }
        }
    }

    /** log N(x; μ, L Lᵀ). */
    private static double logGaussian(double[] x, double[] mu, double[] lower, int n) {
        double[] w = new double[n];
        double quad = 0;
        double logDet = 0;
        for (int i = 0; i < n; i++) {
            double s = x[i] - mu[i];
            for (int j = 0; j < i; j++) {
                s -= lower[i * n + j] * w[j];
            }
            w[i] = s / lower[i * n + i];
            quad += w[i] * w[i];
            logDet += Math.log(lower[i * n + i]);
        }
        return -0.5 * quad - logDet - 0.5 * n * Math.log(2 * Math.PI);
    }

    /**
     * Base draws weighted by {@code exp(β ℓ)} are a properly weighted sample of {@code p_β}; elliptical slice
     * transitions at β keep them one: the weighted first and second moments of every x_i agree with those
     * of an independent weighted sample that was not moved, within five standard errors.
     */
    @Test
    void transitionsLeavePBetaInvariant() {
        double beta = 0.7;
        for (TemperedGpc path : new TemperedGpc[] {TemperedGpc.fromPrior(GpcKernelContract.problem()), fromEp()}) {
            int n = path.size();
            double[][] weights = new double[2][];
            float[][] samples = new float[2][];
            try (TemperedKernel kernel = Kernels.tempered(backend, path); ParticleMatrix x = backend.matrix(PARTICLES, n);
                 ParticleVector lw = backend.vector(PARTICLES)) {
                for (int set = 0; set < 2; set++) {
                    kernel.sampleBase(x, PARTICLES, 41 + set, 0);
                    kernel.logDensity(x, PARTICLES, beta, lw);
                    weights[set] = backend.download(lw, PARTICLES);
                    if (set == 1) {
                        kernel.transition(x, PARTICLES, Betas.of(beta), 4, 43, 1);
                    }
                    samples[set] = backend.download(x, PARTICLES);
                }
            }
            for (int i = 0; i < n; i++) {
                for (int power = 1; power <= 2; power++) {
                    double[] a = weightedMoment(samples[0], weights[0], n, i, power);
                    double[] b = weightedMoment(samples[1], weights[1], n, i, power);
                    assertEquals(a[0], b[0], 5 * Math.sqrt(a[1] + b[1]), path.description() + ": E[x_" + i + "^" + power
                            + "] before and after 4 transitions");
                }
            }
        }
    }

    /** {weighted mean, its variance from the effective sample size} of x_i^power. */
    private static double[] weightedMoment(float[] x, double[] logW, int n, int i, int power) {
        double max = Arrays.stream(logW).max().orElseThrow();
        double total = 0;
        double squares = 0;
        double mean = 0;
        double second = 0;
        for (int r = 0; r < logW.length; r++) {
            double w = Math.exp(logW[r] - max);
            double v = Math.pow(x[r * n + i], power);
            total += w;
            squares += w * w;
            mean += w * v;
            second += w * v * v;
        }
        mean /= total;
        return new double[] {mean, (second / total - mean * mean) / (total * total / squares)};
    }

    /**
     * The all-level densities of the 6-case problem (5 chains) and of 40 cases (37 chains: more cases than a GPU warp's
     * staged tile holds, and a partial warp) against the log density at β = 1.
     */
    @Test
    void levelsAreBetaTimesEllAndEll() {
        levelsAreBetaTimesEllAndEll(fromEp(), 5);
        levelsAreBetaTimesEllAndEll(TemperedGpc.fromPrior(GpcKernelContract.circle(40)), 37);
    }

    private void levelsAreBetaTimesEllAndEll(TemperedGpc path, int count) {
        int n = path.size();
        int levels = 3;
        try (TemperedKernel kernel = Kernels.tempered(backend, path); ParticleMatrix x = backend.matrix(count, n);
             ParticleVector betas = backend.vector(levels); ParticleVector logF = backend.vector(count * levels);
             ParticleVector slope = backend.vector(count * levels); ParticleVector one = backend.vector(count)) {
            kernel.sampleBase(x, count, 3, 0);
            backend.upload(new double[] {0, 0.25, 1}, betas);
            kernel.levels(x, count, betas, levels, logF, slope);
            kernel.logDensity(x, count, 1.0, one);
            double[] ell = backend.download(one, count);
            double[] f = backend.download(logF, count * levels);
            double[] d = backend.download(slope, count * levels);
            for (int r = 0; r < count; r++) {
                assertEquals(0.0, f[r * levels], 0.0, "β = 0");
                assertEquals(0.25 * ell[r], f[r * levels + 1], 1e-12 * Math.abs(ell[r]), "β = 0.25");
                assertEquals(ell[r], f[r * levels + 2], 1e-12 * Math.abs(ell[r]), "β = 1");
                for (int k = 0; k < levels; k++) {
                    assertEquals(ell[r], d[r * levels + k], 1e-12 * Math.abs(ell[r]), "slope");
                }
            }
        }
    }

    /**
     * The same seeds give the same states here and on the reference, through base draws, annealing steps
     * and per-particle temperatures, up to float rounding of the auxiliary draw (a slice test that
     * rounding flips changes one particle's path, which stays rare): on 6 cases from EP, and on 40 from the prior
     * (more cases than a warp has lanes, for kernels that spread a chain's cases over one).
     */
    @Test
    void agreesWithTheReference() {
        agreesWithTheReference(fromEp());
        agreesWithTheReference(TemperedGpc.fromPrior(GpcKernelContract.circle(40)));
    }

    private void agreesWithTheReference(TemperedGpc path) {
        int rows = 131;
        int n = path.size();
        float[][] out = new float[2][];
        double[][] lw = new double[2][];
        ParticleBackend[] backends = {backend, reference};
        double[] betas = new double[rows];
        for (int r = 0; r < rows; r++) {
            betas[r] = (r % 7) / 6.0;
        }
        for (int b = 0; b < 2; b++) {
            try (TemperedKernel kernel = Kernels.tempered(backends[b], path); ParticleMatrix x = backends[b].matrix(rows, n);
                 ParticleVector w = backends[b].vector(rows); ParticleVector perRow = backends[b].vector(rows)) {
                backends[b].fill(w, 0, rows, 0.0);
                kernel.sampleBase(x, rows, 51, 0);
                for (int k = 1; k <= 5; k++) {
                    kernel.anneal(x, rows, (k - 1) / 5.0, k / 5.0, w, 2, 51, 2 * k);
                }
                backends[b].upload(betas, perRow);
                kernel.transition(x, rows, Betas.of(perRow), 3, 52, 20);
                out[b] = backends[b].download(x, rows);
                lw[b] = backends[b].download(w, rows);
            }
        }
        int differing = 0;
        for (int r = 0; r < rows; r++) {
            boolean same = true;
            for (int i = 0; i < n; i++) {
                same &= Math.abs(out[1][r * n + i] - out[0][r * n + i]) <= 1e-5 * (1 + Math.abs(out[1][r * n + i]));
            }
            differing += same ? 0 : 1;
            assertEquals(lw[1][r], lw[0][r], 1e-6 * (1 + Math.abs(lw[1][r])), n + " cases: log weight of row " + r);
        }
        assertEquals(0, differing, differing + " of " + rows + " rows of " + n + " cases differ from the reference");
    }
}
