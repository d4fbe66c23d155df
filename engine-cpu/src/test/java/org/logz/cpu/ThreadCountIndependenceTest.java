package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logz.api.Logz;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ResampleMove.Variant;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.tempered.TemperedResult;
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

    /**
     * Tempered sampling at 100 chains: tiles of 64 and 36 rows, which two and three threads split into pieces inside
     * tiles ({@link CpuBackend#partition}); the product a piece keeps between the levels and the next sweep must be its
     * own rows'.
     */
    @Test
    void temperedSamplingGivesTheSameBitsWithOneTwoAndThreeThreads() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        TemperedResult[] runs = new TemperedResult[3];
        for (int threads = 1; threads <= 3; threads++) {
            try (ParticleBackend b = CpuBackend.create(threads)) {
                runs[threads - 1] = (TemperedResult) Logz.rbm(f.rbm()).rts().baseRate("visible-bias").backend(b)
                        .chains(100).levels(20).roundSweeps(10).rounds(2).sweeps(60).seed(5).run().run();
            }
        }
        for (int t = 1; t < 3; t++) {
            assertEquals(runs[0].logZ(), runs[t].logZ(), 0.0, (t + 1) + " threads");
            assertArrayEquals(runs[0].occupancy(), runs[t].occupancy(), 0.0, (t + 1) + " threads");
            assertArrayEquals(runs[0].visits(), runs[t].visits(), (t + 1) + " threads");
        }
    }

    @Test
    void piecesCoverEveryRowOnceInBalancedRunsWithinTiles() {
        for (int threads = 1; threads <= 3; threads++) {
            try (CpuBackend b = CpuBackend.create(threads)) {
                for (int[] range : new int[][] {{0, 100}, {0, 1}, {0, 1000}, {37, 130}, {64, 64}}) {
                    int first = range[0];
                    int count = range[1];
                    List<List<CpuBackend.Piece>> runs = b.partition(first, count);
                    assertEquals(runs, b.partition(first, count), "the same arguments, the same pieces");
                    int next = first;
                    int index = 0;
                    int most = 0;
                    int least = Integer.MAX_VALUE;
                    for (List<CpuBackend.Piece> run : runs) {
                        int rows = 0;
                        for (CpuBackend.Piece p : run) {
                            assertEquals(index++, p.index());
                            assertEquals(next, p.tile() * CpuMatrix.TILE_ROWS + p.from(), "contiguous, in order");
                            assertTrue(p.from() < p.to() && p.to() <= CpuMatrix.TILE_ROWS, p.toString());
                            next += p.to() - p.from();
                            rows += p.to() - p.from();
                        }
                        most = Math.max(most, rows);
                        least = Math.min(least, rows);
                    }
                    assertEquals(first + count, next, "every row once");
                    assertTrue(runs.size() <= threads, runs.size() + " runs on " + threads + " threads");
                    assertTrue(most - least <= threads, "runs of " + least + " to " + most + " rows");
                }
            }
        }
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
