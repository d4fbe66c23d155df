package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling.Settings;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.MarginalRbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmProblem;
import org.logz.model.rbm.RbmSource;
import org.logz.path.TemperedPath;
import org.logz.problem.Problem;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * Habeck's marginal RBM path (§6.3) on the scalar reference backend, whose kernel recomputes F(h) afresh for every
 * flip, against exact log Z by enumeration: AIS, BAR and the other nonequilibrium estimators from data starts, and
 * RTS/TI/TI-RB/MBAR, within the bounds the full path's tests use (max(4 SE, 0.1)).
 */
class MarginalPathAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    @Test
    void aisOnRandom20x10() {
        Rbm rbm = RandomRbm.create(20, 10, 1.0, 2020);
        try (TemperedPath path = new TemperedPath(backend, new MarginalRbm(rbm))) {
            AnnealingResult r = new AnnealedImportanceSampling(new Settings(500, Schedule.linear(300), 1))
                    .forward(path, ProgressListener.NONE);
            Accuracy.assertLands("marginal random 20x10", r, RbmEnumeration.logZ(rbm), 0.1);
        }
    }

    /** Reverse chains from the 8×8 digits the demo (64×16) was trained on: an example, h ~ p(h|v), 100 sweeps at β = 1. */
    @Test
    void barOnTheDemoFromDataStarts() {
        RbmProblem demo = new RbmProblem(RbmSource.loadDemo());
        Problem.PathOptions options = new Problem.PathOptions("auto", "digits", 1, 5, null, null, "marginal", null);
        try (TemperedPath path = demo.annealingPath(backend, options)) {
            assertInstanceOf(MarginalRbm.class, path.model());
            Start start = demo.reverseStart("data", path, 200, options);
            BidirectionalResult r = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(200, 200,
                    Schedule.linear(200), 100, 5)).run(path, start, ProgressListener.NONE);
            assertEquals("data:100", r.reverse().start());
            Accuracy.assertAllLand("marginal demo 64x16 from data", r, demo.exactLogZ(true).orElseThrow(), 0.1);
        }
    }

    @Test
    void temperedSamplingOnRandom20x10() {
        Rbm rbm = RandomRbm.create(20, 10, 1.0, 2020);
        try (TemperedPath path = new TemperedPath(backend, new MarginalRbm(rbm))) {
            TemperedSampling.Settings settings = new TemperedSampling.Settings(100, Schedule.linear(49), null, 50, 6, 1000,
                    10, 10_000, 3);
            Accuracy.assertAllLand("marginal random 20x10", new TemperedSampling(settings).run(path, ProgressListener.NONE),
                    RbmEnumeration.logZ(rbm), 0.1);
        }
    }
}
