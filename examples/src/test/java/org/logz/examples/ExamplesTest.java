package org.logz.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.api.Result;
import org.logz.cli.Main;
import org.logz.model.rbm.RbmFiles;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The examples run as a user runs them, and their numbers are checked against exact values and the command line. */
class ExamplesTest {
    @Test
    void quickStartPrintsAnEstimateWithoutWarnings() {
        String out = stdout(() -> QuickStart.main(new String[0]));
        assertTrue(out.matches("(?s)log Z = [0-9.]+ ± [0-9.]+\\R"), out);
    }

    @Test
    void trackingLogZWhileTrainingAgreesWithEnumerationAndWithTheCommandLine(@TempDir Path dir) throws Exception {
        List<TrackTraining.Row> rows = TrackTraining.track(6, 3, "cpu", 2);
        assertEquals(List.of(3, 6), rows.stream().map(TrackTraining.Row::epoch).toList());
        for (TrackTraining.Row r : rows) {
            double se = r.estimate().standardError().orElseThrow();
            assertTrue(Math.abs(r.estimate().logZ() - r.exactLogZ()) < 4 * se + 0.05,
                    "epoch " + r.epoch() + ": " + r.estimate().logZ() + " ± " + se + " vs exact " + r.exactLogZ());
            assertTrue(r.testLogLikelihood() < 0 && r.trainLogLikelihood() < 0, r.toString());
        }
        TrackTraining.Row last = rows.get(1);
        Path model = dir.resolve("trained.npz");
        RbmFiles.write(model, last.model(), Optional.empty());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"estimate", "--model", model.toString(), "--chains", "200", "--steps", "1000",
                "--seed", "6", "--json"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        double cli = new ObjectMapper().readTree(out.toString()).get("logZ").asDouble();
        assertEquals(Double.doubleToLongBits(cli), Double.doubleToLongBits(last.estimate().logZ()),
                "logz estimate " + cli + ", the example " + last.estimate().logZ());
        assertTrue(Files.size(model) > 0);
    }

    @Test
    void theSameEstimateOnTheCpuAndOnTheCudaKernels() {
        List<Result> results = CpuAndCuda.estimates();
        Assumptions.assumeTrue(results.size() == 2, "the CUDA kernels cannot run here (see the example's output)");
        Result cpu = results.get(0);
        Result cuda = results.get(1);
        assertTrue(cuda.backend().startsWith("cuda"), cuda.backend());
        double se = Math.hypot(cpu.standardError().orElseThrow(), cuda.standardError().orElseThrow());
        assertTrue(Math.abs(cpu.logZ() - cuda.logZ()) < 4 * se + 0.01, cpu.logZ() + " on cpu, " + cuda.logZ() + " on "
                + cuda.backend());
    }

    private static String stdout(Runnable program) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            program.run();
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
