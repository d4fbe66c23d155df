package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.ResampleMove.Variant;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmSequence;
import org.logz.path.SequentialPath;
import org.logz.path.UnitOrder;
import org.logz.resample.ResamplingScheme;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * Resample-Move and the ARM variants on the scalar reference backend against exact log Z (issue 3
 * acceptance). The standard error comes from independent replicates; besides
 * {@code |error| ≤ max(4·SE, 0.1)} the SE itself must be small, so that a broken error estimate cannot
 * hide a broken estimate. Errors are printed for the closing note.
 */
class SequentialAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();
    private static BinaryDataset digits;

    @BeforeAll
    static void loadData() {
        digits = Datasets.load("digits");
    }

    private static ResampleMove.Settings settings(Variant variant, int particles, int gibbsSteps, long seed) {
        return settings(variant, particles, gibbsSteps, 3, 100, seed);
    }

    private static ResampleMove.Settings settings(Variant variant, int particles, int gibbsSteps, int maxGenerate,
                                                  int reseedSweeps, long seed) {
        return new ResampleMove.Settings(variant, particles, gibbsSteps, 0.7, 0.7, maxGenerate, ResamplingScheme.RESIDUAL,
                reseedSweeps, 100, seed);
    }

    private static Replicates<SequentialResult> replicates(Rbm rbm, Optional<BinaryDataset> data, int count,
                                                           java.util.function.LongFunction<ResampleMove.Settings> settings) {
        UnitOrder order = UnitOrder.parse(null, rbm.visible(), data);
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(rbm, order, data))) {
            return Replicates.run(count, 17, seed -> new ResampleMove(settings.apply(seed)).run(path, ProgressListener.NONE));
        }
    }

    private static void assertLands(String name, Replicates<SequentialResult> r, double exact, double maxStdErr) {
        double seconds = r.runs().stream().mapToDouble(SequentialResult::seconds).sum();
        long steps = r.runs().stream().mapToLong(SequentialResult::particleSteps).sum();
        Accuracy.assertLands(String.format(Locale.ROOT, "%s: log mean Z (%d replicates, sd of log Z %.4f, %d particle-steps,"
                + " %.1f s)", name, r.runs().size(), r.sdLogZ(), steps, seconds), r.logZ(), r.stdErr(), exact, 0.1, maxStdErr);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void smallRandomRbm(Variant variant) {
        Rbm rbm = RandomRbm.create(16, 8, 2.0, 1608);
        BinaryDataset data = BinaryDataset.of("uniform", 4, 16, new float[64], null);
        Optional<BinaryDataset> reseed = variant == Variant.RESEED ? Optional.of(data) : Optional.empty();
        assertLands("random 16x8 " + variant.cliName(), replicates(rbm, reseed, 4, seed -> settings(variant, 300, 5, seed)),
                RbmEnumeration.logZ(rbm), 0.1);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void digitsRbm(Variant variant) {
        var f = Fixtures.digits64x16();
        assertLands("digits 64x16 " + variant.cliName(),
                replicates(f.rbm(), Optional.of(digits), 4, seed -> settings(variant, 500, 10, seed)),
                RbmEnumeration.logZ(f.rbm()), 0.25);
    }

    @Test
    void leeWhiteleyStandardErrorTracksTheSpreadOfReplicates() {
        var f = Fixtures.digits64x16();
        UnitOrder order = UnitOrder.byVariance(digits);
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(f.rbm(), order, Optional.empty()))) {
            Replicates<SequentialResult> r = Replicates.run(8, 5, seed -> new ResampleMove(new ResampleMove.Settings(
                    Variant.RM, 400, 5, 0.7, 0.7, 3, ResamplingScheme.MULTINOMIAL, 100, 100, seed)).run(path, ProgressListener.NONE));
            double meanLw = r.runs().stream().mapToDouble(s -> s.stdErr().orElseThrow()).average().orElseThrow();
            System.out.printf(Locale.ROOT, "Lee-Whiteley: mean single-run SE %.4f, sd of log Z over %d replicates %.4f%n", meanLw,
                    r.runs().size(), r.sdLogZ());
            assertTrue(meanLw > r.sdLogZ() / 3 && meanLw < 3 * r.sdLogZ(), "LW " + meanLw + " vs sd " + r.sdLogZ());
        }
    }

    /**
     * ARM's default islands: four populations of R, one estimate with a standard error (their spread, scaled for
     * Student's t), landing within it on the digits RBM; the work of four populations and the worst island's trace.
     */
    @Test
    void islandsGiveArmAStandardErrorThatHolds() {
        var f = Fixtures.digits64x16();
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(f.rbm(), UnitOrder.byVariance(digits),
                Optional.of(digits)))) {
            SequentialResult r = Islands.run(settings(Variant.ARM, 300, 5, 21), Islands.DEFAULT, path,
                    ProgressListener.NONE);
            assertEquals(4, r.islands());
            assertEquals(300, r.particles());
            assertEquals(64, r.trace().size());
            Accuracy.assertLands("digits 64x16 arm, 4 islands of 300", r.logZ(), r.stdErr().orElseThrow(),
                    RbmEnumeration.logZ(f.rbm()), 0.1, 0.25);
            SequentialResult one = new ResampleMove(settings(Variant.ARM, 300, 5, 21)).run(path, ProgressListener.NONE);
            assertTrue(r.particleSteps() > 3 * one.particleSteps(), "four populations' work: " + r.particleSteps());
        }
        assertThrows(UserException.class, () -> Islands.check(3));
    }

    @Test
    void singleRunStandardErrorOnlyWhereSound() {
        Rbm rbm = RandomRbm.create(8, 4, 1.0, 3);
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(rbm, UnitOrder.natural(8), Optional.empty()))) {
            assertTrue(new ResampleMove(settings(Variant.RM, 50, 2, 1)).run(path, ProgressListener.NONE).stdErr().isEmpty());
            assertTrue(new ResampleMove(settings(Variant.ARM, 50, 2, 1)).run(path, ProgressListener.NONE).stdErr().isEmpty());
        }
    }

    @Test
    void traceRecordsEveryIteration() {
        var f = Fixtures.digits64x16();
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(f.rbm(), UnitOrder.byVariance(digits),
                Optional.of(digits)))) {
            SequentialResult r = new ResampleMove(settings(Variant.ARM, 200, 3, 4)).run(path, ProgressListener.NONE);
            assertEquals(64, r.trace().size());
            double sum = r.logZ0();
            boolean grew = false;
            for (SequentialTracePoint p : r.trace()) {
                assertTrue(p.particles() >= 200 && p.particles() <= 200 * 4, "R_n within [R, (1 + i_max) R]");
                assertTrue(p.gamma() > 0 && p.gamma() <= 1 + 1e-12);
                grew |= p.particles() > 200;
                sum += p.logZIncrement();
            }
            assertTrue(grew, "ARM generated particles at least once on this model");
            assertEquals(r.logZ(), sum, 1e-9, "log Z is log Z_0 plus the increments");
            assertEquals(r.trace().get(0).particles(), 200, "no move and equal weights at the first unit");
        }
    }
}
