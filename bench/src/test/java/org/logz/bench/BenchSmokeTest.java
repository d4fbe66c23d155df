package org.logz.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.cli.plot.TracePlot;
import org.logz.cpu.CpuBackend;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.model.BaseRate;
import org.logz.model.GpClassification;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
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
                    new SweepBenchmark.Settings(70, 2, 3, 2, true));
            assertTrue(r.sweepOverOwnProducts() > 0 && Double.isFinite(r.sweepOverOwnProducts()), r.toString());
            assertTrue(r.annealOverSweep() > 0 && Double.isFinite(r.annealOverSweep()), r.toString());
            assertTrue(r.sweepOverBestGemm() > 0 && Double.isFinite(r.sweepOverBestGemm()), r.toString());
            assertTrue(r.bestDenseGemm().dense() && r.sweepOverBestDenseGemm() <= r.sweepOverBestGemm(), r.toString());
            assertTrue(r.runs().rtsChainSweeps() > 0 && r.runs().aisChainSweeps() > 0
                    && Double.isFinite(r.runs().rtsOverAis()) && r.runs().rtsOverAis() > 0, r.toString());
            assertEquals(3, r.floors().size(), "OpenBLAS and the backend's own whole-shape products, dense and on the states");
            assertTrue(r.floors().contains(r.bestGemm()), r.toString());
            assertTrue(r.temperOverAnneal() > 0 && Double.isFinite(r.temperOverAnneal()), r.toString());
            assertEquals(70, r.chains());
        }
    }

    @Test
    void peersWithoutAnInterpreterAreNamedMissingNotCrashed() {
        Rbm rbm = RandomRbm.create(37, 11, 0.3, 1);
        try (ParticleBackend backend = CpuBackend.create(2)) {
            PeerBenchmark.Result r = PeerBenchmark.run(backend, rbm, new PeerBenchmark.Settings(16, 1, 1, 1, false, "/no/such/python3"));
            assertEquals(1, r.peers().size(), r.toString());
            assertTrue(r.peers().get(0).missing().contains("/no/such/python3 could not be started"), r.toString());
            assertTrue(r.logzChainSweepsPerSecond() > 0);
        }
    }

    @Test
    void peersRunOrSayWhatIsMissing() {
        String python = PeerBenchmark.Settings.defaultPython();
        Rbm rbm = RandomRbm.create(37, 11, 0.3, 1);
        try (ParticleBackend backend = CpuBackend.create(2)) {
            PeerBenchmark.Result r = PeerBenchmark.run(backend, rbm, new PeerBenchmark.Settings(16, 1, 1, 1, false, python));
            for (PeerBenchmark.Peer p : r.peers()) {
                assertTrue(p.missing() != null || (p.sweepSeconds() > 0 && p.logzSpeedup() > 0), p.toString());
            }
            assertTrue(r.peers().size() >= 1, r.toString());
        }
    }

    @Test
    void gpcSweepBenchmarkReportsPositiveRatios() {
        GpClassification m = GpClassification.squaredExponential(new double[][] {{0}, {0.4}, {1.1}, {-0.3}, {2}},
                new int[] {1, -1, 1, 1, -1}, 0, 1, "five");
        try (ParticleBackend backend = CpuBackend.create(2)) {
            GpcSweepBenchmark.Result r = GpcSweepBenchmark.run(backend, m, new GpcSweepBenchmark.Settings(9, 3, 2));
            assertTrue(r.gibbsSweepOverGemm() > 0 && Double.isFinite(r.gibbsSweepOverGemm()), r.toString());
            assertTrue(r.gibbsSweepOverGemv() > 0 && Double.isFinite(r.gibbsSweepOverGemv()), r.toString());
            assertTrue(r.ellipseStepOverGemm() > 0 && Double.isFinite(r.ellipseStepOverGemm()), r.toString());
            assertEquals(5, r.rank());
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
        try (ParticleBackend backend = CpuBackend.create(1); TemperedPath path = new TemperedPath(backend,
                new TemperedRbm(rbm, BaseRate.uniform(8)))) {
            result = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(10, Schedule.linear(20), 1))
                    .forward(path, ProgressListener.NONE);
        }
        Path png = dir.resolve("trace.png");
        TracePlot.write(png, result, java.util.List.of());
        assertPng(png);
    }

    private static void assertPng(Path png) throws IOException {
        byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head);
    }


}
