package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.SequentialTracePoint;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Emulator;

/** Particles stay on the device: host-device traffic per AIS step and per ARM iteration does not grow with their number. */
class TransferTest {
    private static CudaBackend backend;

    @BeforeAll
    static void open() {
        Emulator.require();
        backend = EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.close();
        }
    }

    private static long aisBytes(Rbm rbm, int chains, int steps) {
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, BaseRate.uniform(rbm.visible())))) {
            return new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(chains, Schedule.linear(steps), 1))
                    .forward(path, ProgressListener.NONE).transferBytes();
        }
    }

    @Test
    void aisTrafficPerStepIsIndependentOfTheChains() {
        Rbm rbm = RandomRbm.create(20, 9, 1.0, 3);
        long perTenStepsFew = aisBytes(rbm, 64, 30) - aisBytes(rbm, 64, 20);
        long perTenStepsMany = aisBytes(rbm, 640, 30) - aisBytes(rbm, 640, 20);
        assertEquals(perTenStepsFew, perTenStepsMany, "bytes per 10 AIS steps with 64 and 640 chains");
        assertTrue(perTenStepsFew <= 10 * 64, "a few scalars per step, got " + perTenStepsFew + " bytes per 10 steps");
    }

    private static SequentialResult arm(Rbm rbm, int particles, ResampleMove.Variant variant) {
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(rbm, UnitOrder.natural(rbm.visible()), Optional.empty()))) {
            return new ResampleMove(new ResampleMove.Settings(variant, particles, 2, 0.7, 0.7, 3, ResamplingScheme.RESIDUAL,
                    10, 100, 5)).run(path, ProgressListener.NONE);
        }
    }

    @Test
    void armTrafficPerIterationIsBoundedIndependentlyOfTheParticles() {
        Rbm rbm = RandomRbm.create(16, 8, 2.5, 4);
        for (ResampleMove.Variant variant : new ResampleMove.Variant[] {ResampleMove.Variant.ARM,
                ResampleMove.Variant.ANTICIPATE}) {
            long[] max = new long[2];
            int[] particles = {64, 1024};
            for (int i = 0; i < 2; i++) {
                SequentialResult r = arm(rbm, particles[i], variant);
                boolean generated = false;
                for (SequentialTracePoint p : r.trace()) {
                    max[i] = Math.max(max[i], p.transferBytes());
                    generated |= p.particles() > particles[i];
                }
                assertTrue(generated, variant + " with R = " + particles[i] + " never generated; the test needs it to");
            }
            // summaries (32 B), copy counts (8 B) and residual totals (8 B): a bounded number per iteration
            assertTrue(max[0] <= 1024 && max[1] <= 1024, variant + ": at most " + max[0] + " and " + max[1] + " bytes per iteration");
        }
    }

    @Test
    void gathersThroughIndicesTheBackendDrewReadNothingBackButUploadedOnesAreStillChecked() {
        int n = 50;
        try (org.logz.backend.ParticleMatrix x = backend.matrix(n, 3); org.logz.backend.ParticleMatrix y = backend.matrix(n, 3);
             org.logz.backend.ParticleVector logW = backend.vector(n); org.logz.backend.IndexVector index = backend.indices(n)) {
            backend.resample(ResamplingScheme.SYSTEMATIC, logW, n, n, 1, 0, index);
            long before = backend.transferredBytes();
            backend.gatherRows(x, index, n, y, 0);
            assertEquals(before, backend.transferredBytes(), "no range check read back for resampled indices");
            int[] bad = new int[n];
            bad[n - 1] = n;
            backend.upload(bad, index);
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> backend.gatherRows(x, index, n, y, 0));
            bad[n - 1] = n - 1;
            backend.upload(bad, index);
            backend.gatherRows(x, index, n, y, 0);
        }
    }
}
