package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.model.data.DataSequence;
import org.logz.model.mixture.Mixture;
import org.logz.model.mixture.MixtureFiles;
import org.logz.path.UnitOrder;

/**
 * The contract of data annealing's sequential kernel (Habeck §6.4): the start draws the prior, the smooth step adds
 * each row's exact {@code log p(y_l | θ)} of the point entered at that iteration, the moves leave
 * {@code p_k(θ) ∝ p(θ) Π_{l<k} p(y_l | θ)} invariant (a one-component mixture, whose p_k is Gaussian in closed form),
 * rows outside the range stay as they were, and the backend draws the reference backend's bits.
 */
public abstract class DataAnnealingKernelContract extends BackendTest {
    private static final int ROWS = 3000;
    private static final int FIRST = 5;

    /** One component in one dimension: y_l ~ N(μ, 1), μ ~ N(0.5, 2²), so p_k(μ) is normal. */
    private static Mixture gaussian() {
        return new Mixture(new double[] {1.2, 0.4, 2.1, 1.7, -0.3}, 1, new double[] {1}, 1, new double[] {0.5}, 2,
                "gaussian");
    }

    private static SequentialKernel kernel(ParticleBackend on, DataSequence sequence) {
        return Kernels.sequential(on, sequence);
    }

    /** The states of rows [0, FIRST + ROWS) after starting rows [FIRST, FIRST + ROWS) and, for active > 0, moving them. */
    private static float[] startAndMove(ParticleBackend on, DataSequence sequence, int active, int transitions) {
        int d = sequence.dimension();
        try (SequentialKernel k = kernel(on, sequence); ParticleMatrix x = on.matrix(FIRST + ROWS, d)) {
            on.upload(new float[(FIRST + ROWS) * d], FIRST + ROWS, x);
            ParticleState state = new ParticleState(List.of(x));
            k.start(state, FIRST, ROWS, 17, 0);
            if (active > 0) {
                k.move(state, active, FIRST, ROWS, transitions, 17, 1);
            }
            return on.download(x, FIRST + ROWS);
        }
    }

    private static double[] moments(float[] x, int d, int coordinate) {
        double mean = 0;
        for (int r = FIRST; r < FIRST + ROWS; r++) {
            mean += x[r * d + coordinate] / (double) ROWS;
        }
        double var = 0;
        for (int r = FIRST; r < FIRST + ROWS; r++) {
            double a = x[r * d + coordinate] - mean;
            var += a * a / (ROWS - 1);
        }
        return new double[] {mean, var};
    }

    @Test
    void theStartDrawsThePriorAndLeavesOtherRows() {
        Mixture m = MixtureFiles.read("sim12");
        DataSequence sequence = new DataSequence(m, UnitOrder.natural(m.points()));
        int d = sequence.dimension();
        float[] x = startAndMove(backend, sequence, 0, 0);
        for (int i = 0; i < FIRST * d; i++) {
            assertEquals(0f, x[i], "row " + i / d + " lies outside the range");
        }
        for (int k = 0; k < d; k++) {
            double[] mv = moments(x, d, k);
            double sd = m.priorSd()[k];
            assertEquals(m.priorMean()[k], mv[0], 4 * sd / Math.sqrt(ROWS), "prior mean of θ_" + k);
            assertEquals(sd * sd, mv[1], 4 * sd * sd * Math.sqrt(2.0 / ROWS), "prior variance of θ_" + k);
        }
    }

    @Test
    void smoothingAddsThePointEnteredAtThatIteration() {
        Mixture m = MixtureFiles.read("sim12");
        DataSequence sequence = new DataSequence(m, UnitOrder.random(m.points(), 4));
        int d = sequence.dimension();
        int iteration = 6;
        try (SequentialKernel k = kernel(backend, sequence); ParticleMatrix x = backend.matrix(40, d);
             ParticleVector logW = backend.vector(40)) {
            float[] theta = new float[40 * d];
            for (int i = 0; i < theta.length; i++) {
                theta[i] = (float) (3 * Math.sin(0.7 * i + 0.2));
            }
            backend.upload(theta, 40, x);
            backend.fill(logW, 0, 40, -1.5);
            k.smooth(new ParticleState(List.of(x)), iteration, 3, 30, logW);
            double[] got = backend.download(logW, 40);
            for (int r = 0; r < 40; r++) {
                double[] th = new double[d];
                for (int q = 0; q < d; q++) {
                    th[q] = theta[r * d + q];
                }
                double expected = r < 3 || r >= 33 ? -1.5 : -1.5 + m.logLikelihood(sequence.point(iteration), th);
                assertEquals(expected, got[r], 1e-12 * (1 + Math.abs(expected)), "row " + r);
            }
        }
    }

    /** From prior draws, 40 moves at p_k reach its closed-form mean and variance (and keep them: p_k is invariant). */
    @Test
    void movesSampleTheIntermediatePosterior() {
        Mixture m = gaussian();
        DataSequence sequence = new DataSequence(m, UnitOrder.natural(m.points()));
        for (int active : new int[] {1, 3, 5}) {
            double precision = 1 / 4.0;
            double shift = 0.5 / 4.0;
            for (int l = 0; l < active; l++) {
                precision += 1;
                shift += m.y(l, 0);
            }
            double mean = shift / precision;
            double var = 1 / precision;
            double[] mv = moments(startAndMove(backend, sequence, active, 40), 1, 0);
            assertEquals(mean, mv[0], 4 * Math.sqrt(var / ROWS) * 2, "p_" + active + " mean");
            assertEquals(var, mv[1], 0.12 * var, "p_" + active + " variance");
        }
    }

    /**
     * The backend's mixture point likelihoods (mixture.cu on CUDA) against the model's scalar formula: odd counts, a θ
     * matrix wider than θ, sub-ranges of a permuted order, rows past the count left alone; to the rounding of exp and log.
     */
    @Test
    void mixturePointLikelihoodsMatchTheFormula() {
        Mixture m = MixtureFiles.read("sim12");
        int d = m.parameters();
        int cols = d + 3;
        int rows = 37;
        int[] order = UnitOrder.random(m.points(), 8).permutation();
        float[] theta = new float[rows * cols];
        for (int i = 0; i < theta.length; i++) {
            theta[i] = i % cols < d ? (float) (4 * Math.cos(1.3 * i + 0.1)) : 1e30f;
        }
        try (var kernel = Kernels.pointLikelihood(backend, m).orElseThrow();
             ParticleMatrix x = backend.matrix(rows, cols); ParticleVector out = backend.vector(rows);
             var points = backend.indices(order.length)) {
            backend.upload(theta, rows, x);
            backend.upload(order, points);
            for (int[] range : new int[][] {{0, 12}, {3, 4}, {5, 11}, {7, 7}}) {
                backend.fill(out, 0, rows, 9.5);
                kernel.logLikelihoods(x, 31, points, range[0], range[1], out);
                double[] got = backend.download(out, rows);
                for (int r = 0; r < rows; r++) {
                    double expected = 9.5;
                    if (r < 31) {
                        double[] th = new double[d];
                        for (int q = 0; q < d; q++) {
                            th[q] = theta[r * cols + q];
                        }
                        expected = 0;
                        for (int k = range[0]; k < range[1]; k++) {
                            expected += m.logLikelihood(order[k], th);
                        }
                    }
                    assertEquals(expected, got[r], 1e-12 * (1 + Math.abs(expected)),
                            "row " + r + " of points [" + range[0] + ", " + range[1] + ")");
                }
            }
        }
    }

    @Test
    void theBackendDrawsTheReferenceBits() {
        Mixture m = MixtureFiles.read("sim12");
        DataSequence sequence = new DataSequence(m, UnitOrder.natural(m.points()));
        assertArrayEquals(startAndMove(reference, sequence, 7, 3), startAndMove(backend, sequence, 7, 3));
        assertTrue(sequence.dimension() == m.parameters(), "the state is θ");
    }
}
