package org.logz.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.backend.ParticleBackend;
import org.logz.cpu.CpuBackend;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ProgressListener;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.path.RbmTemperedPath;
import org.logz.schedule.Schedule;

/** The benchmarks run and produce sane numbers (no timing is asserted: speed belongs to the bench runs). */
class BenchSmokeTest {
    @TempDir
    Path dir;

    @Test
    void sweepBenchmarkReportsPositiveRatios() {
        Rbm rbm = RandomRbm.create(37, 11, 0.3, 1);
        try (ParticleBackend backend = CpuBackend.create(2)) {
            SweepBenchmark.Result r = SweepBenchmark.run(backend, rbm, BaseRate.uniform(37),
                    new SweepBenchmark.Settings(70, 2, 3, 2));
            assertTrue(r.sweepOverGemm() > 0 && Double.isFinite(r.sweepOverGemm()), r.toString());
            assertTrue(r.annealOverGemm() > 0 && Double.isFinite(r.annealOverGemm()), r.toString());
            assertEquals(70, r.chains());
        }
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, SweepBenchmark.median(new double[] {3, 1, 2}));
        assertEquals(2.5, SweepBenchmark.median(new double[] {4, 1, 2, 3}));
    }

    @Test
    void tracePlotIsAPng() throws IOException {
        Rbm rbm = RandomRbm.create(8, 4, 1.0, 2);
        AnnealingResult result;
        try (ParticleBackend backend = CpuBackend.create(1); RbmTemperedPath path = new RbmTemperedPath(backend, rbm,
                BaseRate.uniform(8))) {
            result = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(10, Schedule.linear(20), 1))
                    .forward(path, ProgressListener.NONE);
        }
        Path png = dir.resolve("trace.png");
        TracePlot.write(png, result);
        byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head);
    }
}
