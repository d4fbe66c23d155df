package org.logz.estimate.tempered;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.ising.Ising;
import org.logz.model.ising.IsingExact;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.reference.ReferenceBackend;

/** RTS, TI, TI-RB and MBAR from one tempered run on the scalar reference backend against exact log Z (issue 5 acceptance). */
class TemperedAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    private static TemperedResult run(Rbm rbm, BaseRate base, TemperedSampling.Settings settings) {
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, base))) {
            return new TemperedSampling(settings).run(path, ProgressListener.NONE);
        }
    }

    /** The command line's defaults: 100 chains, 100 linear levels, doubling rounds from 50 sweeps, 2000 final sweeps. */
    private static TemperedSampling.Settings settings(long seed) {
        return new TemperedSampling.Settings(100, Schedule.linear(99), null, 50, 6, 2000, 10, 10_000, seed);
    }

    @Test
    void random20x10() {
        Rbm rbm = RandomRbm.create(20, 10, 1.0, 2020);
        Accuracy.assertAllLand("random 20x10", run(rbm, BaseRate.uniform(20), settings(1)), RbmEnumeration.logZ(rbm), 0.1);
    }

    @Test
    void ising6x6() {
        Ising model = new Ising(6);
        try (TemperedPath path = new TemperedPath(backend, model, 1)) {
            TemperedResult r = new TemperedSampling(new TemperedSampling.Settings(100, Schedule.linear(59), null, 50, 6, 2000,
                    10, 10_000, 4)).run(path, ProgressListener.NONE);
            Accuracy.assertAllLand("Ising 6x6", r, IsingExact.logZ(model, 1.0), 0.1);
        }
    }
}
