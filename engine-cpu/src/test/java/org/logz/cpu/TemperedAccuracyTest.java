package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.estimate.ProgressListener;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.exact.IsingExact;
import org.logz.exact.RbmEnumeration;
import org.logz.io.RbmFiles;
import org.logz.model.BaseRate;
import org.logz.model.Ising;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.testkit.Fixtures;

/** RTS, TI, TI-RB and MBAR from one tempered run against exact log Z (issue 5 acceptance). */
class TemperedAccuracyTest extends SharedCpuBackend {

    private static TemperedResult run(Rbm rbm, BaseRate base, TemperedSampling.Settings settings) {
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, base))) {
            return new TemperedSampling(settings).run(path, ProgressListener.NONE);
        }
    }

    /** The command line's defaults: 100 chains, 100 linear levels, doubling rounds from 50 sweeps, 2000 final sweeps. */
    private static TemperedSampling.Settings settings(long seed) {
        return new TemperedSampling.Settings(100, Schedule.linear(99), null, 50, 6, 2000, 10, 10_000, seed);
    }

    private static void assertAllWithinBound(String name, TemperedResult r, double exact) {
        System.out.printf(Locale.ROOT, "%s: %d initial rounds (converged %s, max|r-c| %.2e), %d chain-sweeps, %.2f s%n",
                name, r.initialRounds(), r.converged(), r.finalDeviation(), r.sweeps(), r.seconds());
        for (LevelEstimate e : r.estimates()) {
            double error = e.logZ() - exact;
            System.out.printf(Locale.ROOT, "  %-6s %.4f ± %.4f, exact %.4f, error %+.4f%n", e.method(), e.logZ(), e.stdErr(),
                    exact, error);
            assertTrue(Math.abs(error) <= Math.max(4 * e.stdErr(), 0.1), name + " " + e.method() + ": error " + error
                    + ", SE " + e.stdErr());
        }
    }

    @Test
    void random20x10() {
        Rbm rbm = RandomRbm.create(20, 10, 1.0, 2020);
        assertAllWithinBound("random 20x10", run(rbm, BaseRate.uniform(20),
                settings(1)),
                RbmEnumeration.logZ(rbm));
    }

    @Test
    void ising6x6() {
        Ising model = new Ising(6);
        try (TemperedPath path = new TemperedPath(backend, model, 1)) {
            TemperedResult r = new TemperedSampling(new TemperedSampling.Settings(100, Schedule.linear(59), null, 50, 6, 2000,
                    10, 10_000, 4)).run(path, ProgressListener.NONE);
            assertAllWithinBound("Ising 6x6", r, IsingExact.logZ(model, 1.0));
        }
    }

    @Test
    void mnist784x16() {
        RbmFiles.RbmFile f = Fixtures.mnist784x16();
        assertAllWithinBound("mnist 784x16 (CD-1)", run(f.rbm(), f.baseRate().orElseThrow(),
                settings(2)),
                RbmEnumeration.logZ(f.rbm()));
    }
}
