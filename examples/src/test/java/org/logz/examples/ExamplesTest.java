package org.logz.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.logz.train.TrainingRun;

import com.fasterxml.jackson.databind.JsonNode;
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
        TrainingRun.Result result = TrackTraining.track(6, 3, "cpu", 2);
        assertEquals(6, result.epochs().size());
        for (TrainingRun.Epoch r : result.epochs()) {
            assertTrue(Math.abs(r.logZ() - r.exactLogZ()) < 4 * r.stdErr() + 0.01, r.toString());
            assertEquals(r.epoch() % 3 == 0, !Double.isNaN(r.aisLogZ()), r.toString());
            assertTrue(r.validationLogLikelihood() < 0 && r.trainLogLikelihood() < 0, r.toString());
        }
        Path model = dir.resolve("trained.npz");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"train", "--data", "digits", "--validation", "297", "--hidden", "16",
                "--method", "pcd", "--epochs", "6", "--track", "rts", "--track-levels", "50", "--ais-every", "3",
                "--evaluate", "1500", "--out", model.toString(), "--json"}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode epochs = new ObjectMapper().readTree(out.toString()).get("epochs");
        for (int e = 0; e < 6; e++) {
            TrainingRun.Epoch r = result.epochs().get(e);
            assertEquals(Double.doubleToLongBits(r.logZ()), Double.doubleToLongBits(epochs.get(e).get("logZ").asDouble()),
                    "epoch " + (e + 1) + ": logz train " + epochs.get(e) + ", the example " + r);
            assertEquals(r.trainLogLikelihood(), epochs.get(e).get("trainLogLikelihood").asDouble(), 0.0);
        }
        assertArrayEquals(result.model().weights(), RbmFiles.read(model).rbm().weights());
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
