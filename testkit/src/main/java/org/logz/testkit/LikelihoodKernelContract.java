package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.LikelihoodKernel;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.LatentFiles;
import org.logz.model.latent.StochasticVolatility;
import org.logz.random.NormalStream;

/**
 * The contract of a backend's batched likelihood estimates (AISEL's inner loop): the GLMM's importance sampler with
 * both proposals and the stochastic volatility particle filter agree with the scalar reference to
 * {@code 1e-10 + 1e-12·|ref|} over odd particle counts and a θ matrix wider than θ, leave the rest of the output
 * alone, and the GLMM estimate is unbiased for the exact likelihood ({@code E p̂/p = 1} within four standard errors).
 */
public abstract class LikelihoodKernelContract extends BackendTest {
    private static final int EXTRA_COLUMNS = 3;

    /** count × (d + EXTRA_COLUMNS) parameters drawn from the prior (Philox stream 5), the extra columns garbage. */
    private static float[] thetas(LatentModel model, int count) {
        int d = model.parameters();
        int cols = d + EXTRA_COLUMNS;
        float[] rows = new float[count * cols];
        for (int r = 0; r < count; r++) {
            NormalStream normals = new NormalStream(5, r, 0, 99);
            for (int k = 0; k < cols; k++) {
                rows[r * cols + k] = k < d ? (float) (model.priorMean()[k] + model.priorSd()[k] * normals.at(k)) : 1e30f;
            }
        }
        return rows;
    }

    private static double[] estimate(ParticleBackend on, LatentModel model, float[] rows, int count,
                                     Likelihood.Estimated likelihood, int extra) {
        int cols = model.parameters() + EXTRA_COLUMNS;
        try (LikelihoodKernel kernel = Kernels.likelihood(on, model); ParticleMatrix theta = on.matrix(count, cols);
             ParticleVector out = on.vector(count + extra)) {
            on.upload(rows, count, theta);
            on.fill(out, 0, count + extra, 7.0);
            kernel.estimate(theta, count, likelihood, 11, 3, out);
            return on.download(out, count + extra);
        }
    }

    private void assertAgrees(LatentModel model, Likelihood.Estimated likelihood) {
        for (int count : new int[] {1, 37, 301}) {
            float[] rows = thetas(model, count);
            double[] got = estimate(backend, model, rows, count, likelihood, 2);
            double[] want = estimate(reference, model, rows, count, likelihood, 0);
            for (int r = 0; r < count; r++) {
                double tol = 1e-10 + 1e-12 * Math.abs(want[r]);
                assertTrue(Math.abs(got[r] - want[r]) <= tol || (got[r] == want[r]), model.description() + " "
                        + likelihood.describe() + ", particle " + r + " of " + count + ": " + got[r] + " vs " + want[r]);
            }
            assertEquals(7.0, got[count], "rows past count are left alone");
            assertEquals(7.0, got[count + 1], "rows past count are left alone");
        }
    }

    @Test
    void glmmEstimatesMatchTheReference() {
        Glmm model = LatentFiles.glmm("sim8");
        assertAgrees(model, new Likelihood.Estimated(5, Likelihood.Proposal.LAPLACE));
        assertAgrees(model, new Likelihood.Estimated(3, Likelihood.Proposal.PRIOR));
    }

    @Test
    void particleFilterMatchesTheReference() {
        StochasticVolatility model = LatentFiles.stochasticVolatility("sim200");
        assertAgrees(model, new Likelihood.Estimated(17, Likelihood.Proposal.BOOTSTRAP));
    }

    /** E[p̂ / p] = 1 at one θ with the prior proposal, whose weights vary the most, over 4000 estimates. */
    @Test
    void glmmEstimateIsUnbiased() {
        Glmm model = LatentFiles.glmm("sim8");
        int count = 4000;
        int d = model.parameters();
        int cols = d + EXTRA_COLUMNS;
        float[] rows = new float[count * cols];
        double[] theta = {-0.3, 0.8, 0.2};
        for (int r = 0; r < count; r++) {
            for (int k = 0; k < d; k++) {
                rows[r * cols + k] = (float) theta[k];
            }
        }
        double exact = model.exactLogLikelihood(new double[] {(float) theta[0], (float) theta[1], (float) theta[2]})
                .orElseThrow();
        double[] got = estimate(backend, model, rows, count, new Likelihood.Estimated(2, Likelihood.Proposal.PRIOR), 0);
        double mean = 0;
        double squares = 0;
        for (double v : got) {
            double ratio = Math.exp(v - exact);
            mean += ratio / count;
            squares += ratio * ratio / count;
        }
        double se = Math.sqrt((squares - mean * mean) / count);
        assertEquals(1, mean, 4 * se, "mean of p̂/p (SE " + se + ")");
        assertTrue(se < 0.05, "the check has power: SE " + se);
    }
}
