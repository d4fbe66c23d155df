package org.logz.cpu;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.Replicates;
import org.logz.estimate.ResampleMove.Variant;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.train.RbmTrainer;
import org.logz.train.RtsTracker;
import org.logz.train.TrainingMethod;
import org.logz.train.TrainingRun;

/**
 * Every estimator on 784-unit RBMs against their exact log Z, on the CPU backend: the estimators
 * themselves are tested on small models on the reference backend (testkit); these tests show that the
 * CPU backend carries them to models of MNIST's size, where the reference backend would take a quarter
 * of an hour. Errors are printed for the closing notes.
 */
class LargeModelAccuracyTest {
    private static ParticleBackend backend;
    private static BinaryDataset mnist;

    @BeforeAll
    static void open() {
        backend = CpuBackend.create(2);
        mnist = Datasets.load("mnist");
    }

    @AfterAll
    static void close() {
        backend.close();
    }

    @Test
    void aisOnMnist784x16() {
        RbmFiles.RbmFile f = Fixtures.mnist784x16();
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()))) {
            Accuracy.assertLands("mnist 784x16 (CD-1)", new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(
                    500, Schedule.linear(1000), 4)).forward(path, ProgressListener.NONE), RbmEnumeration.logZ(f.rbm()), 0.1);
        }
    }

    /**
     * The PCD-trained fixture (tools/models/README.md) against the exact value recorded beside it: harder for AIS than
     * the CD-1 models (500 chains × 1000 steps left a standard error of 0.18), as the ARM and VAROPT papers find.
     */
    @Test
    void aisOnThePcdMnist784x20() {
        RbmFiles.RbmFile f = Fixtures.mnist784x20Pcd();
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()))) {
            Accuracy.assertLands("mnist 784x20 (PCD)", new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(
                    300, Schedule.linear(5000), 4)).forward(path, ProgressListener.NONE), Fixtures.MNIST_784x20_PCD_LOG_Z,
                    0.15);
        }
    }

    /**
     * RTS tracking through PCD training of a 784×20 RBM from the CD-1 fixture (RTS §4.4 on an enumerable MNIST model):
     * each epoch's log Z within four of its errors (or 0.02) of the exact value. Its log Z moves by 14 nats in the second
     * epoch; the measurement's rounds catch up (a single round missed by 2.4 nats).
     */
    @Test
    void trackingThroughPcdTrainingOfAMnist784x20() {
        RbmTrainer.Settings training = new RbmTrainer.Settings(20, 2, new TrainingMethod.Persistent(100), 100, 0.01, 0.5,
                1e-4, 5);
        TrainingRun.Settings s = new TrainingRun.Settings(training, TrainingRun.Tracking.RTS,
                RtsTracker.Settings.of(200, 100, 25, TrainingRun.Settings.key(5, 1)), 1, new TrainingRun.Check(0, 2, 1),
                500);
        TrainingRun.Result r = TrainingRun.run(mnist.head(1000), Optional.empty(), Optional.of(Fixtures.mnist784x20().rbm()),
                s, backend, TrainingRun.Listener.NONE);
        r.warnings().forEach(w -> System.out.println("warning: " + w.message()));
        for (TrainingRun.Epoch e : r.epochs()) {
            Accuracy.assertLands("mnist 784x20 tracked through PCD, epoch " + e.epoch(), e.logZ(), e.stdErr(),
                    e.exactLogZ(), 0.02, 0.5);
        }
    }

    /** The command line's defaults: 100 chains, 100 linear levels, doubling rounds from 50 sweeps, 2000 final sweeps. */
    @Test
    void temperedSamplingOnMnist784x16() {
        RbmFiles.RbmFile f = Fixtures.mnist784x16();
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()))) {
            Accuracy.assertAllLand("mnist 784x16 (CD-1)", new TemperedSampling(new TemperedSampling.Settings(100,
                    Schedule.linear(99), null, 50, 6, 2000, 10, 10_000, 2)).run(path, ProgressListener.NONE),
                    RbmEnumeration.logZ(f.rbm()), 0.2);
        }
    }

    @Test
    void bidirectionalAnnealingOnMnist784x16() {
        RbmFiles.RbmFile f = Fixtures.mnist784x16();
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()))) {
            Accuracy.assertAllLand("mnist 784x16 (CD-1)", new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(300,
                    300, Schedule.linear(1000), 100, 2)).run(path, new AnnealedImportanceSampling.Start.Exact(),
                    ProgressListener.NONE), RbmEnumeration.logZ(f.rbm()), 0.2);
        }
    }

    private static ResampleMove.Settings settings(Variant variant, int particles, int gibbsSteps, int maxGenerate,
                                                  int reseedSweeps, long seed) {
        return new ResampleMove.Settings(variant, particles, gibbsSteps, 0.7, 0.7, maxGenerate, ResamplingScheme.RESIDUAL,
                reseedSweeps, 100, seed);
    }

    private static Replicates<SequentialResult> replicates(Rbm rbm, int count,
                                                           java.util.function.LongFunction<ResampleMove.Settings> settings) {
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(rbm, UnitOrder.parse(null, rbm.visible(),
                Optional.of(mnist)), Optional.of(mnist)))) {
            return Replicates.run(count, 17, seed -> new ResampleMove(settings.apply(seed)).run(path, ProgressListener.NONE));
        }
    }

    private static void assertLands(String name, Replicates<SequentialResult> r, double exact, double maxStdErr) {
        double seconds = r.runs().stream().mapToDouble(SequentialResult::seconds).sum();
        Accuracy.assertLands(String.format(Locale.ROOT, "%s: log mean Z (%d replicates, sd of log Z %.4f, %.1f s)", name,
                r.runs().size(), r.sdLogZ(), seconds), r.logZ(), r.stdErr(), exact, 0.1, maxStdErr);
    }

    /**
     * The hard case, on the CPU backend (the reference backend needs a quarter of an hour for it). Reseeded chains start at data examples and need long runs to reach
     * {@code p_n} (the paper used 1500 sweeps); with 100 they are far from it and bias the estimate
     * by several nats, so reseeding gets 1000 sweeps and one batch per iteration here.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void mnist784x20(Variant variant) {
        Rbm rbm = Fixtures.mnist784x20().rbm();
        boolean reseed = variant == Variant.RESEED;
        assertLands("mnist 784x20 " + variant.cliName(), replicates(rbm, reseed ? 3 : 5,
                        seed -> settings(variant, 100, 10, reseed ? 1 : 3, reseed ? 1000 : 100, seed)),
                MNIST_784x20_LOG_Z.get(), 1.0);
    }

    /** Enumerating 2^20 hidden states takes seconds; do it once for all variants. */
    private static final Supplier<Double> MNIST_784x20_LOG_Z = new Supplier<>() {
        private Double value;

        @Override
        public synchronized Double get() {
            if (value == null) {
                value = RbmEnumeration.logZ(Fixtures.mnist784x20().rbm());
            }
            return value;
        }
    };
}
