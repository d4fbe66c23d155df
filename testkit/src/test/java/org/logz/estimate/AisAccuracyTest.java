package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling.Settings;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * AIS and reverse AIS on the scalar reference backend against exact log Z (issue 2 acceptance); errors are
 * printed for the closing note.
 */
class AisAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    private static AnnealingResult ais(Rbm rbm, BaseRate base, int chains, Schedule schedule, long seed) {
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, base))) {
            return new AnnealedImportanceSampling(new Settings(chains, schedule, seed)).forward(path, ProgressListener.NONE);
        }
    }

    @Test
    void random20x10() {
        Rbm rbm = RandomRbm.create(20, 10, 1.0, 2020);
        Accuracy.assertLands("random 20x10", ais(rbm, BaseRate.uniform(20), 500, Schedule.linear(500), 1),
                RbmEnumeration.logZ(rbm), 0.1);
    }

    @Test
    void random64x16() {
        Rbm rbm = RandomRbm.create(64, 16, 0.5, 6416);
        Accuracy.assertLands("random 64x16", ais(rbm, BaseRate.uniform(64), 500, Schedule.linear(1000), 2),
                RbmEnumeration.logZ(rbm), 0.1);
    }

    @Test
    void digits64x16() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        Accuracy.assertLands("digits 64x16 (CD-5)", ais(f.rbm(), f.baseRate().orElseThrow(), 500, Schedule.linear(1000), 3),
                RbmEnumeration.logZ(f.rbm()), 0.1);
    }

    /**
     * With a short schedule the bias dominates: AIS averages below log Z and reverse AIS from exact
     * samples averages above it (Jensen; Burda et al. 2015), the sandwich of Habeck eq. 7.
     */
    @Test
    void forwardAveragesBelowAndReverseFromExactSamplesAbove() {
        Rbm rbm = RandomRbm.create(14, 9, 1.2, 1409);
        double exact = RbmEnumeration.logZ(rbm);
        double forward = 0;
        double reverse = 0;
        int seeds = 8;
        for (int seed = 1; seed <= seeds; seed++) {
            Settings s = new Settings(50, Schedule.linear(20), seed);
            try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, BaseRate.uniform(14)))) {
                AnnealedImportanceSampling estimator = new AnnealedImportanceSampling(s);
                forward += estimator.forward(path, ProgressListener.NONE).logZ() / seeds;
                reverse += estimator.reverse(path, new AnnealedImportanceSampling.Start.Exact(), ProgressListener.NONE)
                        .logZ() / seeds;
            }
        }
        System.out.printf(Locale.ROOT, "sandwich 14x9: mean AIS %.4f <= exact %.4f <= mean RAISE %.4f%n", forward, exact,
                reverse);
        assertTrue(forward < exact, "mean AIS " + forward + " vs exact " + exact);
        assertTrue(reverse > exact, "mean RAISE " + reverse + " vs exact " + exact);
    }
}
