package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.TemperedModel;
import org.logz.model.RandomRbm;
import org.logz.random.Philox;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * What every contract test class shares: a fresh backend per test from the backend module's factory
 * and a {@link ReferenceBackend} to compare it with, both closed afterwards, and the {@code atol + |ref|·rtol} comparison of DESIGN §7.
 */
public abstract class BackendTest {
    /** Absolute and relative tolerance for float32 products summed into float64 results. */
    protected static final double ATOL = 2e-3;
    protected static final double RTOL = 1e-5;

    protected ParticleBackend backend;
    /** The scalar reference backend, to compare the backend under test with; open while it is. */
    protected ParticleBackend reference;

    /** A fresh backend using {@code threads} host threads. */
    protected abstract ParticleBackend createBackend(int threads);

    @BeforeEach
    void open() {
        backend = createBackend(2);
        reference = new ReferenceBackend();
    }

    @AfterEach
    void close() {
        if (backend != null) {
            backend.close();
        }
        if (reference != null) {
            reference.close();
        }
    }

    protected static void assertClose(double expected, double actual, String what) {
        double tol = ATOL + Math.abs(expected) * RTOL;
        assertTrue(Math.abs(expected - actual) <= tol, what + ": expected " + expected + " got " + actual + " (tol " + tol + ")");
    }

    /**
     * A tempered kernel's base draws and two annealing steps (up with two transitions, then down with one) on one and on
     * two host threads: the same states and weights to the bit, since every draw is keyed by its chain.
     */
    protected void assertThreadCountIndependent(TemperedModel model, int rows) {
        float[][] states = new float[2][];
        double[][] weights = new double[2][];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = createBackend(threads); TemperedKernel ops = Kernels.tempered(b, model);
                 ParticleMatrix x = b.matrix(rows, model.dimension()); ParticleVector lw = b.vector(rows)) {
                ops.sampleBase(x, rows, 11, 0);
                ops.anneal(x, rows, 0.0, 0.5, lw, 2, 11, 1);
                ops.anneal(x, rows, 0.5, 0.4, lw, 1, 11, 3);
                states[threads - 1] = b.download(x, rows);
                weights[threads - 1] = b.download(lw, rows);
            }
        }
        assertArrayEquals(states[0], states[1]);
        assertArrayEquals(weights[0], weights[1]);
    }

    /** Binary states with P(1) = 0.4 from Philox stream 77. */
    protected static float[] randomStates(int rows, int cols, long seed) {
        float[] x = new float[rows * cols];
        int[] words = new int[4];
        for (int k = 0; k < x.length; k++) {
            if ((k & 3) == 0) {
                Philox.block(seed, k >>> 2, 0, 0, 77, words);
            }
            x[k] = Philox.toUniform(words[k & 3]) < 0.4f ? 1f : 0f;
        }
        return x;
    }

    /** Base-rate log-odds of spread 3. */
    protected static float[] randomBase(int n, long seed) {
        return RandomRbm.create(n, 1, 3.0, seed).visibleBias();
    }

    /** Log weights uniform in [-3, 3) from Philox stream 78. */
    protected static double[] randomLogWeights(int count, long seed) {
        double[] lw = new double[count];
        int[] words = new int[4];
        for (int i = 0; i < count; i++) {
            Philox.block(seed, i, 0, 0, 78, words);
            lw[i] = 6.0 * Philox.toUniform(words[0]) - 3.0;
        }
        return lw;
    }
}
