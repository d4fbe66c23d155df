package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Fixtures;

/**
 * Whole runs give the same bits on every arithmetic path of the CPU backend (DESIGN §4.1): the native kernels of
 * each instruction set this machine runs and the Java path ({@code logz.cpu.isa}), for AIS, tempered sampling and
 * ARM on MNIST RBMs, so where a user runs logz, or whether the native library was built, changes no result.
 */
class ArithmeticPathsTest {
    private static final String PROPERTY = "logz.cpu.isa";

    @AfterEach
    void restore() {
        System.clearProperty(PROPERTY);
    }

    /** The paths to compare: java and every native set up to the machine's best. */
    private static List<String> paths() {
        List<String> out = new ArrayList<>(List.of("java"));
        if (CpuNative.loadError().isEmpty()) {
            for (int isa = CpuNative.GENERIC; isa <= CpuNative.best(); isa++) {
                out.add(CpuNative.name(isa));
            }
        } else {
            System.out.println("native CPU kernels not compared: " + CpuNative.loadError());
        }
        return out;
    }

    private interface Run<T> {
        T on(ParticleBackend backend);
    }

    private static <T> List<T> onEveryPath(Run<T> run) {
        List<T> results = new ArrayList<>();
        for (String path : paths()) {
            System.setProperty(PROPERTY, path);
            try (ParticleBackend backend = CpuBackend.create(2)) {
                results.add(run.on(backend));
            }
        }
        return results;
    }

    @Test
    void aisAndTemperedSamplingGiveTheSameBits() {
        RbmFiles.RbmFile f = Fixtures.mnist784x16();
        TemperedRbm model = new TemperedRbm(f.rbm(), f.baseRate().orElseThrow());
        List<AnnealingResult> ais = onEveryPath(b -> {
            try (TemperedPath path = new TemperedPath(b, model)) {
                return new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(70, Schedule.linear(40), 5))
                        .forward(path, ProgressListener.NONE);
            }
        });
        List<TemperedResult> rts = onEveryPath(b -> {
            try (TemperedPath path = new TemperedPath(b, model)) {
                return new TemperedSampling(new TemperedSampling.Settings(100, Schedule.linear(30), null, 50, 4, 600, 5, 1000, 6))
                        .run(path, ProgressListener.NONE);
            }
        });
        for (int i = 1; i < ais.size(); i++) {
            assertEquals(ais.get(0).logZ(), ais.get(i).logZ(), 0.0, "AIS, path " + paths().get(i));
            assertArrayEquals(ais.get(0).logWeights(), ais.get(i).logWeights(), 0.0, "AIS weights, path " + paths().get(i));
            for (int e = 0; e < rts.get(0).estimates().size(); e++) {
                var expected = rts.get(0).estimates().get(e);
                var actual = rts.get(i).estimates().get(e);
                assertEquals(expected.logZ(), actual.logZ(), 0.0, expected.method() + ", path " + paths().get(i));
                assertEquals(expected.stdErr(), actual.stdErr(), 0.0, expected.method() + " error, path " + paths().get(i));
            }
        }
    }

    @Test
    void armGivesTheSameBits() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        BinaryDataset digits = Datasets.load("digits");
        List<SequentialResult> runs = onEveryPath(b -> {
            try (SequentialPath path = new SequentialPath(b, new RbmSequence(f.rbm(), UnitOrder.byVariance(digits),
                    Optional.of(digits)))) {
                return new ResampleMove(new ResampleMove.Settings(ResampleMove.Variant.ARM, 90, 2, 0.7, 0.7, 3,
                        ResamplingScheme.RESIDUAL, 100, 100, 4)).run(path, ProgressListener.NONE);
            }
        });
        for (int i = 1; i < runs.size(); i++) {
            assertEquals(runs.get(0).logZ(), runs.get(i).logZ(), 0.0, "ARM, path " + paths().get(i));
            assertEquals(runs.get(0).trace(), runs.get(i).trace(), "ARM trace, path " + paths().get(i));
        }
    }
}
