package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.logz.backend.ParticleBackend;
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
