package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.estimate.ep.ProbitEp;
import org.logz.kernel.HmcSettings;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.GpClassification;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.gpc.WhitenedGpc;

/**
 * The contract of HMC on GP classification in whitened coordinates (DESIGN §5, "GPC by HMC"): log densities and slopes
 * against the ellipse path's ℓ at {@code x = μ + G ξ}, a gradient good enough that tiny steps are nearly always
 * accepted, the posterior's mean of x as the elliptical slice sampler finds it, and the reference's trajectories.
 */
public abstract class GpcHmcKernelContract extends BackendTest {
    private static TemperedGpc fromEp() {
        GpClassification m = GpcKernelContract.problem();
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        return TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu());
    }

    private static float[] normals(int rows, int d, long seed) {
        float[] out = new float[rows * d];
        for (int r = 0; r < rows; r++) {
            org.logz.random.NormalStream z = new org.logz.random.NormalStream(seed, r, 0, 99);
            for (int i = 0; i < d; i++) {
                out[r * d + i] = (float) z.at(i);
            }
        }
        return out;
    }

    @Test
    void logDensitiesAreTheEllipsePathsAtTheLatentValues() {
        for (TemperedGpc gpc : new TemperedGpc[] {fromEp(), TemperedGpc.fromPrior(GpcKernelContract.problem())}) {
            WhitenedGpc m = new WhitenedGpc(gpc, WhitenedGpc.paperSettings(gpc.start()));
            int r = m.dimension();
            int rows = 5;
            float[] xi = normals(rows, r, 3);
            double[] betas = {0, 0.4, 1};
            try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(rows, r);
                 ParticleVector lb = backend.vector(3); ParticleVector logF = backend.vector(3 * rows);
                 ParticleVector slope = backend.vector(3 * rows)) {
                backend.upload(xi, rows, x);
                backend.upload(betas, lb);
                k.levels(x, rows, lb, 3, logF, slope);
                double[] f = backend.download(logF, 3 * rows);
                double[] s = backend.download(slope, 3 * rows);
                double[] columns = gpc.factor().columns();
                double[] mu = gpc.mean();
                for (int row = 0; row < rows; row++) {
                    float[] latent = new float[gpc.size()];
                    double[] lat = new double[gpc.size()];
                    double q = 0;
                    for (int j = 0; j < r; j++) {
                        q += xi[row * r + j] * (double) xi[row * r + j];
                    }
                    for (int i = 0; i < gpc.size(); i++) {
                        double v = mu[i];
                        for (int j = 0; j < r; j++) {
                            v += columns[j * gpc.size() + i] * xi[row * r + j];
                        }
                        lat[i] = v;
                        latent[i] = (float) v;
                    }
                    double ell = 0;
                    for (int i = 0; i < gpc.size(); i++) {
                        ell += gpc.term(i, lat[i]);
                    }
                    ell += gpc.constant();
                    for (int l = 0; l < 3; l++) {
                        double expected = -0.5 * q - 0.5 * r * Math.log(2 * Math.PI) + betas[l] * ell;
                        assertEquals(expected, f[row * 3 + l], 1e-9 * (1 + Math.abs(expected)), gpc.start() + " log f");
                        assertEquals(ell, s[row * 3 + l], 1e-9 * (1 + Math.abs(ell)), gpc.start() + " slope");
                    }
                }
            }
        }
    }

    /** A wrong gradient makes the energy error first order in ε: ε = 0.01 and L = 20 accept nearly always. */
    @Test
    void smallStepsAreNearlyAlwaysAccepted() {
        TemperedGpc gpc = TemperedGpc.fromPrior(GpcKernelContract.problem());
        WhitenedGpc m = new WhitenedGpc(gpc, new HmcSettings(20, 0.01, false, 0.65, false));
        int rows = 500;
        float[] start = normals(rows, m.dimension(), 5);
        try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(rows, m.dimension())) {
            backend.upload(start, rows, x);
            k.transition(x, rows, Betas.of(1.0), 1, 7, 0);
            int moved = HmcChecks.moved(start, backend.download(x, rows), m.dimension());
            assertTrue(moved >= 0.99 * rows, moved + " of " + rows + " accepted");
        }
    }

    /**
     * The posterior mean of x from 2000 chains after 60 HMC transitions (adapted ε) from the base equals the elliptical
     * slice sampler's after 60 transitions, within 5 combined standard errors in every case.
     */
    @Test
    void posteriorMeansAgreeWithTheEllipticalSliceSampler() {
        TemperedGpc gpc = fromEp();
        WhitenedGpc m = new WhitenedGpc(gpc, new HmcSettings(10, 0.3, true, 0.65, true));
        int rows = 2000;
        int n = gpc.size();
        double[][] mean = new double[2][n];
        double[][] var = new double[2][n];
        try (TemperedKernel hmc = Kernels.tempered(backend, m); ParticleMatrix xi = backend.matrix(rows, m.dimension());
             TemperedKernel ellipse = Kernels.tempered(backend, gpc); ParticleMatrix x = backend.matrix(rows, n)) {
            hmc.sampleBase(xi, rows, 11, 0);
            for (int c = 0; c < 6; c++) {
                hmc.transition(xi, rows, Betas.of(1.0), 10, 11, 1 + 10 * c);
            }
            float[] xs = backend.download(xi, rows);
            ellipse.sampleBase(x, rows, 12, 0);
            ellipse.transition(x, rows, Betas.of(1.0), 60, 12, 1);
            float[] es = backend.download(x, rows);
            for (int r = 0; r < rows; r++) {
                double[] point = new double[m.dimension()];
                for (int j = 0; j < point.length; j++) {
                    point[j] = xs[r * point.length + j];
                }
                double[] lat = m.latent(point);
                for (int i = 0; i < n; i++) {
                    mean[0][i] += lat[i] / rows;
                    var[0][i] += lat[i] * lat[i] / rows;
                    mean[1][i] += es[r * n + i] / (double) rows;
                    var[1][i] += es[r * n + i] * (double) es[r * n + i] / rows;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            double se = Math.sqrt((var[0][i] - mean[0][i] * mean[0][i] + var[1][i] - mean[1][i] * mean[1][i]) / rows);
            assertEquals(mean[1][i], mean[0][i], 5 * se, "posterior mean of x_" + i);
        }
    }

    /** The backend's chains are the reference's: same draws, same ε sequence, to rounding (a rare flip allowed). */
    @Test
    void trajectoriesAreTheReferences() {
        HmcChecks.assertTrajectoriesAgree(backend, reference,
                new WhitenedGpc(fromEp(), new HmcSettings(30, 0.1, true, 0.65, true)), 200, 8);
    }
}
