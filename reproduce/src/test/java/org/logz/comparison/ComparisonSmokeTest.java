package org.logz.comparison;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.cli.plot.TracePlot;
import org.logz.cpu.CpuBackend;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.model.BaseRate;
import org.logz.model.GpClassification;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.gpc.GpcExact;
import org.logz.model.ising.Ising;
import org.logz.model.ising.IsingExact;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.TemperedPath;
import org.logz.problem.Problem;
import org.logz.problem.Reference;
import org.logz.schedule.Schedule;

/** The papers' comparisons run and produce sane numbers against exact answers (speed belongs to the bench runs). */
class ComparisonSmokeTest {
    @TempDir
    Path dir;

    /** Every method of the GP comparison lands near the closed form of a three-case problem, EP included. */
    @Test
    void gpcComparisonRowsLandNearTheClosedForm() {
        GpClassification m = GpClassification.squaredExponential(new double[][] {{0}, {0.4}, {1.1}}, new int[] {1, -1, 1},
                0, 1.5, "three");
        double exact = GpcExact.logZ(m);
        List<GpcComparison.Entry> entries = List.of(GpcComparison.Entry.parse("rm:200"), GpcComparison.Entry.parse("arm:100"),
                GpcComparison.Entry.parse("ais-prior:200:200"), GpcComparison.Entry.parse("ais-ep:200:50:linear"));
        try (ParticleBackend backend = CpuBackend.create(2)) {
            GpcComparison.Table t = GpcComparison.run(backend, m, entries, 4, 1, ProgressListener.NONE);
            assertEquals(exact, t.epLogZ(), 0.1);
            for (GpcComparison.Row r : t.rows()) {
                assertEquals(exact, r.logMeanZ(), Math.max(4 * r.stdErr(), 0.15), r.toString());
            }
            assertTrue(GpcComparison.markdown(t, Optional.empty()).contains("| ais-ep | 200 | 50 (linear) |"),
                    GpcComparison.markdown(t, Optional.empty()));
            String against = GpcComparison.markdown(t, Optional.of(Reference.exact(exact, "orthants")));
            assertTrue(against.startsWith("Measured against exact log Z") && against.contains("| warned | − exact |"),
                    against);
            assertTrue(against.contains(String.format(Locale.ROOT, "| %+.3f |\n", t.epLogZ() - exact)), against);
        }
        assertThrows(UserException.class, () -> GpcComparison.Entry.parse("ais-ep:100"));
        assertThrows(UserException.class, () -> GpcComparison.Entry.parse("smc:100"));
        assertThrows(UserException.class, () -> GpcComparison.Entry.parse("ais-prior:100:10:nonsense"));
    }
    /**
     * Theorem 1's factor as measured: near 1 where many inner draws make σ² small, well below 1 where one draw from the
     * prior makes it large; the prediction is exp(−σ²/T) on a linear schedule of T steps.
     */
    @Test
    void aiselEssFactorFallsWithTheLikelihoodsNoise() {
        LatentModel model = Problem.parse("glmm:sim8").latentModel().orElseThrow();
        try (ParticleBackend backend = CpuBackend.create(2)) {
            List<AiselEssFactor.Row> rows = AiselEssFactor.run(backend, model, Likelihood.Proposal.PRIOR,
                    new int[] {1, 256}, 100, 10, 2, 1, ProgressListener.NONE);
            AiselEssFactor.Row noisy = rows.get(0);
            AiselEssFactor.Row precise = rows.get(1);
            for (AiselEssFactor.Row r : rows) {
                assertEquals(0.1, r.tau(), 1e-12);
                assertEquals(Math.exp(-r.tau() * r.variance()), r.predicted(), 1e-12);
            }
            assertTrue(noisy.variance() > 1 && precise.variance() < 0.1, rows.toString());
            assertEquals(1, precise.measured(), 0.1, rows.toString());
            assertTrue(noisy.measured() < 0.9, rows.toString());
        }
    }

    /** Every schedule of the comparison lands near the toy's exact log Z; the VAROPT rows count their pilot. */
    @Test
    void scheduleComparisonRowsAreSane() {
        GaussianToy toy = GaussianToy.habeck();
        try (ParticleBackend backend = CpuBackend.create(2); TemperedPath path = new TemperedPath(backend, toy)) {
            List<ScheduleComparison.Row> rows = ScheduleComparison.run(path, toy.logZ1(), List.of("linear",
                    "varopt:pilot=20,chains=10", "smc:0.9"), 60, 200, 3, 1, ProgressListener.NONE);
            assertEquals(3, rows.size());
            for (ScheduleComparison.Row r : rows) {
                assertTrue(r.rmse() < 0.5 && r.meanEss() > 0, r.toString());
            }
            assertEquals(199 * 60, rows.get(0).transitions(), 1e-9);
            assertEquals(199 * 60 + 19 * 10, rows.get(1).transitions(), 1e-9, "the pilot is counted");
            assertTrue(ScheduleComparison.markdown("toy", Reference.exact(toy.logZ1(), "closed form"), rows).contains("| smc:0.9 | 60 |"));
        }
    }
    /** A schedule too short for a cold Ising lattice: the refused runs are scored and counted, not fatal. */
    @Test
    void scheduleComparisonScoresRefusedRuns() {
        Ising ising = new Ising(16);
        try (ParticleBackend backend = CpuBackend.create(2); TemperedPath path = new TemperedPath(backend, ising)) {
            ScheduleComparison.Row row = ScheduleComparison.run(path, IsingExact.logZ(ising, 1), List.of("linear"), 8, 100,
                    3, 1, ProgressListener.NONE).get(0);
            assertTrue(row.refused() > 0 && Double.isFinite(row.rmse()) && row.bias() < 0, row.toString());
            assertTrue(row.refused() < 3 || Double.isNaN(row.meanEss()), row.toString());
        }
    }
    @Test
    void temperedComparisonAndItsPlotsRun() throws IOException {
        Rbm rbm = RandomRbm.create(8, 4, 1.0, 3);
        double exact = RbmEnumeration.logZ(rbm);
        try (ParticleBackend backend = CpuBackend.create(1);
             TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, BaseRate.uniform(8)))) {
            List<TemperedComparison.Row> rows = TemperedComparison.run(path, new AnnealedImportanceSampling.Start.Exact(),
                    exact, new int[] {20}, 2, 10, 8, 10, 1, 1, ProgressListener.NONE);
            assertEquals(List.of("rts", "ts", "ti", "ti-riemann", "ti-friel", "ti-rb", "mbar", "ais", "raise"),
                    rows.stream().map(r -> r.method().toString()).toList());
            for (TemperedComparison.Row r : rows) {
                assertTrue(Double.isFinite(r.rmse()) && r.rmse() >= Math.abs(r.bias()), r.toString());
            }
            assertTrue(TemperedComparison.markdown(Reference.exact(exact, "enumeration"), rows).contains("| ti-rb |"));
            TemperedResult tempered = new TemperedSampling(new TemperedSampling.Settings(10, Schedule.linear(7), null, 10, 1,
                    20, 2, 50, 1)).run(path, ProgressListener.NONE);
            Path png = dir.resolve("tempered.png");
            TracePlot.write(png, tempered);
            assertPng(png);
        }
    }
    @Test
    void workTableMarksTheClosestEstimate() throws IOException {
        Ising model = new Ising(4);
        try (ParticleBackend backend = CpuBackend.create(1)) {
            List<WorkTable.Row> rows = WorkTable.run(n -> new TemperedPath(backend, model, n),
                    (path, m) -> new AnnealedImportanceSampling.Start.Given(model.groundStates(m), "ground",
                            0), IsingExact.logZ(model, 1), new int[] {1, 2}, 50, Schedule.linear(50), 1, ProgressListener.NONE);
            assertEquals(2, rows.size());
            assertEquals(2, rows.get(1).sweepsPerStep());
            assertTrue(rows.get(0).lower() < rows.get(0).against() && rows.get(0).against() < rows.get(0).upper(), rows.toString());
            assertTrue(WorkTable.markdown(rows, "exact").contains("**"), "the closest estimate is marked");
            try (TemperedPath path = new TemperedPath(backend, model, 1)) {
                BidirectionalResult r = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(20, 20,
                        Schedule.linear(20), 10, 1)).run(path, new AnnealedImportanceSampling.Start.Given(model.groundStates(20),
                        "ground", 0), ProgressListener.NONE);
                Path png = dir.resolve("work.png");
                TracePlot.write(png, r, java.util.OptionalDouble.of(IsingExact.logZ(model, 1)));
                assertPng(png);
            }
        }
    }

    private static void assertPng(Path png) throws IOException {
        byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head);
    }
}
