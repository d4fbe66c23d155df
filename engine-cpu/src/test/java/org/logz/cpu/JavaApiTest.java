package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.logz.api.Logz;
import org.logz.api.Result;
import org.logz.backend.Backends;
import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealingResult;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;

/**
 * The Java API ({@link Logz}) on the CPU backend: an estimate against the exact log Z, the same bits however the
 * model and the backend are handed over, and the command line's one-line refusals as {@link UserException}s.
 */
class JavaApiTest {
    /** A 12×5 RBM small enough to enumerate, with weights that make the annealing path non-trivial. */
    private static float[][] weights() {
        float[][] w = new float[12][5];
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 5; j++) {
                w[i][j] = (float) Math.sin(1.7 * i + 0.9 * j) * 1.5f;
            }
        }
        return w;
    }

    private static float[] bias(int n, double phase) {
        float[] b = new float[n];
        for (int i = 0; i < n; i++) {
            b[i] = (float) (0.4 * Math.cos(phase + i));
        }
        return b;
    }

    @Test
    void aisOnArraysAgreesWithEnumerationWithinItsStandardError() {
        float[][] w = weights();
        float[] a = bias(12, 0.3);
        float[] b = bias(5, 1.1);
        Result r = Logz.rbm(w, a, b).baseRate("uniform").ais().chains(500).steps(500).seed(3).run();
        float[] flat = new float[60];
        for (int i = 0; i < 12; i++) {
            System.arraycopy(w[i], 0, flat, i * 5, 5);
        }
        double exact = RbmEnumeration.logZ(new Rbm(12, 5, flat, a, b));
        double se = r.standardError().orElseThrow();
        assertTrue(Math.abs(r.logZ() - exact) < 4 * se + 0.02, r.logZ() + " ± " + se + " vs exact " + exact);
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
        assertEquals(3, r.seed());
        assertEquals("cpu", r.backend());
        assertEquals(500, ((AnnealingResult) r.run()).chains());
    }

    @Test
    void floatArraysAndAReusedBackendGiveTheSameBits() {
        float[][] w = weights();
        float[] a = bias(12, 0.3);
        float[] b = bias(5, 1.1);
        double byArrays = Logz.rbm(w, a, b).baseRate("visible-bias").raise().chains(64).steps(100).seed(9).threads(1).run()
                .logZ();
        try (ParticleBackend backend = Backends.create("cpu", 2)) {
            var estimation = Logz.rbm(w, a, b).baseRate("visible-bias").raise().chains(64).steps(100).seed(9)
                    .backend(backend);
            assertEquals(Double.doubleToLongBits(byArrays), Double.doubleToLongBits(estimation.run().logZ()));
            // the caller's backend stays open: a second run reuses it
            assertEquals(Double.doubleToLongBits(byArrays), Double.doubleToLongBits(estimation.run().logZ()));
        }
    }

    @Test
    void theListenerHearsEveryStep() {
        AtomicLong last = new AtomicLong();
        Logz.demo().chains(10).steps(50).listener((done, total, logZ, ess) -> last.set(done * 1000 + total)).run();
        assertEquals(50_050, last.get());
    }

    @Test
    void badInputIsRefusedWithTheCommandLinesMessages() {
        float[] a = bias(12, 0.3);
        float[] b = bias(5, 1.1);
        assertMessage("W row 3 has 4 values, row 0 has 5", () -> {
            float[][] w = weights();
            w[3] = new float[4];
            Logz.rbm(w, a, b);
        });
        assertMessage("every parameter must be finite", () -> {
            float[][] w = weights();
            w[2][1] = Float.NaN;
            Logz.rbm(w, a, b);
        });
        assertMessage("a has 11 values, expected 12", () -> Logz.rbm(weights(), bias(11, 0), b));
        assertMessage("--levels does not apply to --method ais", () -> Logz.demo().ais().levels(10).run());
        assertMessage("--chains does not apply to --method smc", () -> Logz.demo().smc().chains(10).run());
        assertMessage("unknown --method 'aiss'", () -> Logz.demo().method("aiss"));
        assertMessage("--threads must be between 1 and 1024, got 0", () -> Logz.demo().threads(0).run());
        assertMessage("unknown backend 'gpu'", () -> Logz.demo().backend("gpu").run());
        assertMessage("--start applies to GP classification", () -> Logz.demo().start("prior").run());
        assertMessage("--schedule needs a value", () -> Logz.demo().schedule(null));
        assertMessage("--method needs a value", () -> Logz.demo().method((org.logz.estimate.Method) null));
        assertMessage("the RBM is missing", () -> Logz.rbm((Rbm) null));
        assertMessage("the listeners needs a value", () -> Logz.demo().outcome(1, null));
        assertMessage("is not a file name here", () -> Logz.model("a\0b.npz"));
        assertMessage("inner draws", () -> Logz.model("glmm:sim8").smc().particles(100_000).inner("100000").run());
        try (ParticleBackend backend = Backends.create("cpu", 1)) {
            assertMessage("--threads applies to a backend opened by name", () -> Logz.demo().backend(backend).threads(2).run());
        }
    }

    @Test
    void aRunFarFromTheExactValueSaysSoAsTheCommandLineDoes() {
        Result r = Logz.demo().chains(10).steps(3).seed(1).run();
        assertTrue(r.warnings().stream().anyMatch(w -> w.code().equals("exact-disagrees")), r.warnings().toString());
    }

    @Test
    void aListenerThatFailsToCloseDoesNotHideTheRunsOwnError() {
        class Closing implements org.logz.base.ProgressListener, AutoCloseable {
            @Override
            public void progress(long done, long total, double logZ, double ess) {
            }

            @Override
            public void close() {
                throw new IllegalStateException("close failed");
            }
        }
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> Logz.demo().bar().chains(2).steps(1).seed(3).outcome(1, b -> new Closing()));
        assertTrue(e.getMessage().contains("overlap") || e instanceof org.logz.base.EstimationException, e.toString());
        assertEquals("close failed", e.getSuppressed()[0].getMessage());
    }

    @Test
    void runsFromTwoThreadsOnOneBackendTakeTurnsAndKeepTheirBits() throws Exception {
        double[] alone = new double[4];
        for (int seed = 0; seed < 4; seed++) {
            alone[seed] = Logz.demo().chains(200).steps(200).seed(seed).run().logZ();
        }
        // each run counts itself in at its first step and out at its last: taking turns, never two at once
        java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        org.logz.base.ProgressListener turns = (done, total, logZ, ess) -> {
            if (done == 1) {
                most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            }
            if (done == total) {
                inside.decrementAndGet();
            }
        };
        try (ParticleBackend backend = Backends.create("cpu", 1)) {
            var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                var runs = new java.util.ArrayList<java.util.concurrent.Future<Double>>();
                for (int seed = 0; seed < 4; seed++) {
                    long key = seed;
                    runs.add(pool.submit(() -> Logz.demo().chains(200).steps(200).seed(key).backend(backend)
                            .listener(turns).run().logZ()));
                }
                for (int seed = 0; seed < 4; seed++) {
                    assertEquals(Double.doubleToLongBits(alone[seed]), Double.doubleToLongBits(runs.get(seed).get()));
                }
            } finally {
                pool.shutdown();
            }
        }
        assertEquals(1, most.get(), "runs on one backend at once");
    }

    private static void assertMessage(String fragment, Runnable call) {
        UserException e = assertThrows(UserException.class, call::run);
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
