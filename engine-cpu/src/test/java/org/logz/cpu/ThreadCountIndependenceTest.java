package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ResampleMove.Variant;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
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
 * The CPU backend's own promise (DESIGN §7): tiles run in parallel, but a row's arithmetic never depends
 * on the others, so one and two threads give the same bits. The estimators' accuracy is tested on the
 * reference backend (testkit).
 */
class ThreadCountIndependenceTest {

    @Test
    void aisGivesTheSameBitsWithOneAndTwoThreads() {
        RbmFiles.RbmFile f = Fixtures.mnist784x16();
        AnnealingResult[] runs = new AnnealingResult[2];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = CpuBackend.create(threads);
                 TemperedPath path = new TemperedPath(b, new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()))) {
                runs[threads - 1] = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(130,
                        Schedule.sigmoid(60, 4), 99)).forward(path, ProgressListener.NONE);
            }
        }
        assertEquals(runs[0].logZ(), runs[1].logZ(), 0.0);
        assertArrayEquals(runs[0].logWeights(), runs[1].logWeights(), 0.0);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void sequentialRunsGiveTheSameBitsWithOneAndTwoThreads(Variant variant) {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        BinaryDataset digits = Datasets.load("digits");
        SequentialResult[] runs = new SequentialResult[2];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = CpuBackend.create(threads); SequentialPath path = new SequentialPath(b,
                    new RbmSequence(f.rbm(), UnitOrder.byVariance(digits), Optional.of(digits)))) {
                runs[threads - 1] = new ResampleMove(new ResampleMove.Settings(variant, 150, 3, 0.7, 0.7, 3,
                        ResamplingScheme.RESIDUAL, 100, 100, 9)).run(path, ProgressListener.NONE);
            }
        }
        assertEquals(runs[0].logZ(), runs[1].logZ(), 0.0, variant.cliName());
        assertEquals(runs[0].trace(), runs[1].trace());
    }
}
