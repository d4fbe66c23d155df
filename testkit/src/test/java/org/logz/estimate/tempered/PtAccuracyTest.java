package org.logz.estimate.tempered;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.TemperedModel;
import org.logz.model.ising.Ising;
import org.logz.model.ising.IsingExact;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.reference.ReferenceBackend;

/** Parallel tempering's estimates on the scalar reference backend against exact log Z: an enumerated RBM, Kaufman's Ising. */
class PtAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    private static PtResult run(TemperedModel model, int levels, long seed) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            return new ParallelTempering(new ParallelTempering.Settings(10, Schedule.linear(levels - 1), 5, 50, 2000, 10_000,
                    seed)).run(path, ProgressListener.NONE);
        }
    }

    /** Every estimate lands within its error (the ladders are fine enough for TI's trapezoid), no warning, even swaps. */
    private static void assertLands(String name, PtResult r, double exact) {
        System.out.printf(Locale.ROOT, "%s: barrier %.2f, %d round trips, %.2f s%n", name, r.barrier(), r.totalRoundTrips(),
                r.seconds());
        for (LevelEstimate e : r.estimates()) {
            Accuracy.assertLands("  " + name + " pt " + e.method(), e.logZ(), e.stdErr(), exact, 0.1, 0.1);
        }
        assertTrue(r.warnings().isEmpty(), name + ": " + r.warnings());
        for (double rate : r.swapRates()) {
            assertTrue(rate > 0.3, name + ": a tuned ladder swaps evenly, got " + rate);
        }
    }

    @Test
    void random20x10() {
        Rbm rbm = RandomRbm.create(20, 10, 1.0, 2020);
        assertLands("random 20x10", run(new TemperedRbm(rbm, BaseRate.uniform(20)), 16, 1), RbmEnumeration.logZ(rbm));
    }

    @Test
    void ising6x6() {
        Ising model = new Ising(6);
        assertLands("Ising 6x6", run(model, 48, 4), IsingExact.logZ(model, 1.0));
    }
}
