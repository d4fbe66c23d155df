package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.base.UserException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.RbmFiles;
import org.logz.testkit.Emulator;

class MainTest {
    @TempDir
    Path dir;

    @Test
    void backendsSayWhichRbmArithmeticTheCpuRuns() {
        Cli.Outcome o = Cli.run("backends");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().lines().anyMatch(l -> l.matches("cpu +available: (native (avx512|avx2|generic)|Java) RBM kernels.*")),
                o.out());
    }

    @Test
    void sparkWithoutTheSparkModuleSaysWhereItIs() {
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "10", "--replicates", "2", "--spark",
                "local[2]"), "--spark needs the logz-spark module and Apache Spark on the class path");
    }

    /** A user error is its message and exit 2; anything unexpected is one line naming it and exit 1; --debug adds the trace. */
    @Test
    void userErrorsAndInternalErrorsAreToldApart() {
        StringWriter user = new StringWriter();
        assertEquals(Main.USER_ERROR, Main.report(new UserException("--chains must be positive"), false, new PrintWriter(user)));
        assertEquals("logz: --chains must be positive", user.toString().strip());
        StringWriter internal = new StringWriter();
        assertEquals(Main.FAILURE, Main.report(new IllegalStateException("buffer released twice"), false,
                new PrintWriter(internal)));
        assertEquals("logz: internal error: java.lang.IllegalStateException: buffer released twice (rerun with --debug for the"
                + " stack trace)", internal.toString().strip());
        StringWriter debug = new StringWriter();
        Main.report(new NullPointerException("x"), true, new PrintWriter(debug));
        assertTrue(debug.toString().startsWith("logz: internal error: java.lang.NullPointerException: x\n"), debug.toString());
        assertTrue(debug.toString().contains("\tat org.logz.cli.MainTest"), "stack trace under --debug");
        Cli.Outcome r = Cli.run("estimate", "--chains", "0", "--debug");
        assertEquals(Main.USER_ERROR, r.code());
        assertTrue(r.err().contains("org.logz.base.UserException"), "--debug prints the trace of a user error too: " + r.err());
    }

    @Test
    void demoEstimatePrintsTheRequiredJsonFieldsAndTheExactValue() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--chains", "64", "--steps", "100", "--json", "--threads", "1");
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        for (String field : List.of("method", "backend", "logZ", "stderr", "ess", "seconds", "exactLogZ", "trace")) {
            assertTrue(j.has(field), "missing " + field + " in " + o.out());
        }
        assertEquals("ais", j.get("method").asText());
        assertEquals("cpu", j.get("backend").asText());
        assertEquals(65.0852, j.get("exactLogZ").asDouble(), 1e-4);
        assertTrue(Math.abs(j.get("logZ").asDouble() - j.get("exactLogZ").asDouble()) < 0.5, o.out());
    }

    @Test
    void reverseOnAModelFileWritesWorkValues() throws IOException {
        Path model = dir.resolve("m.npz");
        RbmFiles.write(model, RandomRbm.create(10, 6, 1.0, 3), Optional.empty());
        Path work = dir.resolve("w.txt");
        Cli.Outcome o = Cli.run("estimate", "--model", model.toString(), "--method", "raise", "--chains", "40", "--steps", "30",
                "--work", work.toString(), "--json", "--compare-exact");
        assertEquals(0, o.code(), o.err());
        assertEquals("exact", o.json().get("start").asText());
        assertEquals(40, Files.readAllLines(work).size());
    }

    @Test
    void exactPrintsOneJsonObject() throws IOException {
        Cli.Outcome o = Cli.run("exact");
        assertEquals(0, o.code(), o.err());
        assertEquals(65.0852, o.json().get("logZ").asDouble(), 1e-4);
    }

    @Test
    void badArgumentsAreOneLineAndExitTwo() {
        Cli.assertUserError(Cli.run("estimate", "--chains", "abc"), "--chains");
        Cli.assertUserError(Cli.run("estimate", "--chains", "1"), "at least 2 chains");
        Cli.assertUserError(Cli.run("estimate", "--steps", "0"), "at least 1 step");
        Cli.assertUserError(Cli.run("estimate", "--schedule", "cosine"), "unknown schedule");
        Cli.assertUserError(Cli.run("estimate", "--schedule", "salakhutdinov", "--steps", "10"), "drop --steps");
        Cli.assertUserError(Cli.run("estimate", "--method", "tea"), "--method");
        Cli.assertUserError(Cli.run("estimate", "--backend", "quantum"), "unknown backend 'quantum'");
        Cli.assertUserError(Cli.run("estimate", "--threads", "0"), "--threads must be between 1 and");
        Cli.assertUserError(Cli.run("estimate", "--method", "raise", "--reverse-start", "soon"), "exact, data[:G], forward[:G] or gibbs:B");
        Cli.assertUserError(Cli.run("estimate", "--data", "mnist"), "784 units per example, the model 64");
        Cli.assertUserError(Cli.run("estimate", "--bogus"), "Unknown option");
        Cli.assertUserError(Cli.run("exact", "--model", dir.resolve("absent.npz").toString()), "no such file");
    }

    @Test
    void badFilesAreOneLineAndExitTwo() throws IOException {
        Path text = dir.resolve("bad.npz");
        Files.writeString(text, "not a model");
        Cli.assertUserError(Cli.run("estimate", "--model", text.toString()), "not a .npz archive");
        Path nan = dir.resolve("nan.npz");
        Npz.write(nan, List.of(NpyArray.ofFloats("W", new int[] {2, 2}, new float[] {0, Float.NaN, 0, 0}),
                NpyArray.ofFloats("a", new int[] {2}, new float[2]), NpyArray.ofFloats("b", new int[] {2}, new float[2])));
        Cli.assertUserError(Cli.run("exact", "--model", nan.toString()), "W holds NaN");
        Path big = dir.resolve("big.npz");
        RbmFiles.write(big, RandomRbm.create(40, 35, 0.1, 1), Optional.empty());
        Cli.assertUserError(Cli.run("exact", "--model", big.toString()), "at most 30 units");
    }

    @Test
    void nothingIsWrittenWhenTheOutputCannotBe() {
        Path work = dir.resolve("missing-dir").resolve("w.txt");
        Cli.assertUserError(Cli.run("estimate", "--work", work.toString()), "does not exist");
        assertFalse(Files.exists(work));
    }

    @Test
    void trainWritesAModelThatEstimateReads() throws IOException {
        Path data = dir.resolve("d.npz");
        float[] x = new float[40 * 6];
        for (int k = 0; k < x.length; k++) {
            x[k] = (k * 7 % 5) < 2 ? 1f : 0f;
        }
        Npz.write(data, List.of(NpyArray.ofFloats("X", new int[] {40, 6}, x)));
        Path model = dir.resolve("t.npz");
        Cli.Outcome o = Cli.run("train", "--data", data.toString(), "--hidden", "3", "--epochs", "3", "--batch-size", "10",
                "--out", model.toString(), "--json");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.json().has("exactLogZ"));
        assertEquals(3, o.json().get("epochs").size());
        Cli.Outcome e = Cli.run("estimate", "--model", model.toString(), "--chains", "20", "--steps", "20");
        assertEquals(0, e.code(), e.err());
        assertTrue(e.out().contains("base rate model file"), e.out());
        Cli.assertUserError(Cli.run("train", "--data", "nothing-here", "--hidden", "3", "--out", model.toString()), "no such file");
    }

    /**
     * {@code logz train --track rts}: the table's rows as the epochs end, log Z within its error of the exact value
     * (8 hidden units enumerate), the plot, the JSON's epochs; and what it refuses, each with exit 2 and no file.
     */
    @Test
    void trainTracksTheLogLikelihoodAndRefusesBadOptions() throws IOException {
        Path model = dir.resolve("tracked.npz");
        Path plot = dir.resolve("tracked.png");
        String[] run = {"train", "--data", "digits", "--examples", "600", "--validation", "100", "--hidden", "8",
                "--method", "pcd:50", "--epochs", "3", "--track", "rts", "--track-chains", "100", "--track-levels", "30",
                "--ais-every", "3", "--out", model.toString(), "--plot", plot.toString()};
        Cli.Outcome o = Cli.run(run);
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.get(0).startsWith("epoch  log Z"), o.out());
        for (int e = 1; e <= 3; e++) {
            String[] cells = lines.get(e).trim().split("\\s+");
            double logZ = Double.parseDouble(cells[1]);
            double se = Double.parseDouble(cells[3]);
            double exact = Double.parseDouble(cells[e == 3 ? 9 : 6]);
            assertTrue(Math.abs(logZ - exact) < 4 * se + 0.01, lines.get(e));
        }
        assertTrue(o.out().contains("tracking: "), o.out());
        assertTrue(Files.size(plot) > 0);
        String[] json = java.util.Arrays.copyOf(run, run.length + 1);
        json[run.length] = "--json";
        JsonNode j = Cli.run(json).json();
        assertEquals(3, j.get("epochs").size());
        for (String field : List.of("epoch", "logZ", "stdErr", "trainLogLikelihood", "validationLogLikelihood",
                "aisLogZ", "exactLogZ")) {
            assertTrue(j.get("epochs").get(2).has(field), field);
        }
        assertEquals("pcd:50", j.get("method").asText());
        Path none = dir.resolve("never.npz");
        String d = "digits";
        String h = "4";
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--method", "pcd:0", "--out", none.toString()),
                "PCD needs");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--method", "sgd", "--out", none.toString()),
                "unknown training method");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--track", "exact", "--out", none.toString()),
                "unknown tracking");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--plot", plot.toString(), "--out",
                none.toString()), "--plot");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--ais-every", "2", "--out", none.toString()),
                "--ais-every");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--validation", "1797", "--out",
                none.toString()), "leaves no training examples");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--track", "rts", "--alpha", "0", "--out",
                none.toString()), "α");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--track", "rts", "--track-chains", "1",
                "--out", none.toString()), "at least 4 chains");
        Cli.assertUserError(Cli.run("train", "--data", d, "--hidden", h, "--track", "ais", "--track-levels", "10",
                "--out", none.toString()), "needs --track rts");
        Cli.assertUserError(Cli.run("train", "--data", d, "--init", dir.resolve("missing.npz").toString(), "--out",
                none.toString()), "no such file");
        Cli.Outcome huge = Cli.run("train", "--data", d, "--hidden", h, "--track", "rts", "--ais-chains", "100000000",
                "--out", none.toString());
        Cli.assertUserError(huge, "AIS checks of 100000000 chains");
        assertEquals("", huge.out(), "a refused run prints no table");
        assertFalse(Files.exists(none));
    }

    @Test
    void sequentialMethodsReportTheirTraceAndSettings() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--method", "arm-anticipate", "--particles", "60", "--gibbs-steps", "2", "--data", "digits",
                "--json", "--threads", "2");
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        for (String field : List.of("method", "backend", "logZ", "stderr", "ess", "seconds", "particles", "meanParticles",
                "particleSteps", "order", "resampling", "gammaThreshold", "maxGenerate", "trace", "exactLogZ")) {
            assertTrue(j.has(field), "missing " + field + " in " + o.out());
        }
        assertEquals("variance:digits", j.get("order").asText());
        assertEquals(64, j.get("trace").size());
        assertTrue(j.get("trace").get(10).has("gamma"));
        assertTrue(j.get("stderr").isNumber(), "ARM's default islands give a standard error");
        assertEquals(4, j.get("islands").asInt());
        assertEquals(60, j.get("particles").asInt());
        assertEquals("spread of 4 islands", j.get("stderrMethod").asText());
        Cli.Outcome one = Cli.run("estimate", "--method", "arm", "--particles", "60", "--gibbs-steps", "2", "--islands", "1",
                "--json");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.json().get("stderr").isNull(), "one population of ARM has no single-run standard error");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--islands", "3"), "--islands must be at least 4");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--islands", "0"), "--islands must be between 1 and 10000");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--islands", "4"), "--islands does not apply to --method rts");
    }

    @Test
    void replicatesGiveAStandardErrorAndEachRun() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--method", "rm", "--particles", "40", "--gibbs-steps", "1", "--replicates", "3",
                "--order", "random:4", "--json");
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertEquals(3, j.get("replicates").size());
        assertEquals("replicates", j.get("stderrMethod").asText());
        assertTrue(j.get("stderr").asDouble() > 0);
        assertEquals("random:4", j.get("order").asText());
    }

    @Test
    void multinomialResampleMoveHasASingleRunStandardError() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--method", "rm", "--particles", "40", "--gibbs-steps", "1", "--resampling", "multinomial",
                "--json");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.json().get("stderr").asDouble() > 0, o.out());
    }

    @Test
    void sequentialOptionsAreChecked() {
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--chains", "10"), "--chains does not apply to --method arm");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--particles", "10"), "--particles does not apply to --method ais");
        Cli.assertUserError(Cli.run("estimate", "--method", "rm", "--order", "variance"), "needs a data set");
        Cli.assertUserError(Cli.run("estimate", "--method", "rm", "--order", "sideways"), "unknown unit order");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm-reseed"), "needs a data set");
        Cli.assertUserError(Cli.run("estimate", "--method", "rm", "--resampling", "stratified"), "unknown resampling scheme");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--gamma-threshold", "1.5"), "γ threshold");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--particles", "1"), "at least 2 particles");
        Cli.assertUserError(Cli.run("estimate", "--method", "sequential-mc"), "unknown --method 'sequential-mc'");
        Cli.assertUserError(Cli.run("estimate", "--replicates", "0"), "--replicates must be between 1 and");
        Cli.assertUserError(Cli.run("estimate", "--method", "rm", "--data", "mnist"), "784 units per example, the model 64");
    }

    /** Options a method's family has but the method itself does not read are refused, not ignored. */
    @Test
    void optionsTheMethodDoesNotReadAreRefused() {
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--reverse-start", "exact"),
                "--reverse-start does not apply to --method ais");
        Cli.assertUserError(Cli.run("estimate", "--method", "rm", "--gamma-threshold", "0.5"),
                "--gamma-threshold does not apply to --method rm");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--reseed-sweeps", "10"),
                "--reseed-sweeps does not apply to --method arm");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm-anticipate", "--ess-threshold", "0.5"),
                "--ess-threshold does not apply to --method arm-anticipate");
    }

    /** Requests the run could never honour are refused before it starts, with the reason. */
    @Test
    void impossibleRequestsAreRefusedUpFront() {
        Cli.assertUserError(Cli.run("estimate", "--method", "arm-reseed", "--data", "digits", "--reseed-sweeps", "0"),
                "need Gibbs sweeps");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--gibbs-steps", "2147483647"),
                "exceed the random streams' 2^31 step indices");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--round-sweeps", "1"), "at least 2");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--ladder", "piecewise:0.5/10,1/10", "--levels", "5"),
                "sets its own levels; drop --levels");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--schedule", "equal-divergence", "--steps",
                "100000000"), "capped");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--method", "bar", "--chains", "2147483647"),
                "ground-state starts");
    }

    /**
     * Where the exact answer is known, an estimate far outside its own error bars is a warning (exit 3
     * under --strict) even when the run's diagnostics saw nothing; a Lee-Whiteley variance that comes
     * out negative leaves the run without a standard error instead of printing ± 0.
     */
    @Test
    void failuresTheDiagnosticsMissAreToldWhereTheExactAnswerIsKnown() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--model", "gauss-toy:sigma0=1e-3,sigma1=1,mu0=0,mu1=0", "--chains", "20",
                "--steps", "20", "--strict");
        assertEquals(3, o.code(), o.err());
        assertTrue(o.err().contains("[exact-disagrees]"), o.err());
        Cli.Outcome rm = Cli.run("estimate", "--method", "rm", "--particles", "10", "--gibbs-steps", "1", "--resampling",
                "multinomial", "--json");
        assertEquals(0, rm.code(), rm.err());
        assertTrue(rm.json().get("stderr").isNull(), rm.out());
        assertTrue(rm.json().get("stderrMethod").asText().contains("not positive"), rm.out());
        Cli.Outcome equal = Cli.run("estimate", "--strict", "--model",
                "gauss-toy:mu0=0,sigma0=1,tau0=0.995,mu1=0,sigma1=1,tau1=0.995", "--method", "bar", "--chains", "10",
                "--steps", "3");
        assertEquals(0, equal.code(), "bounds equal to the estimate up to rounding: " + equal.err());
    }

    /** A piecewise ladder sets its own levels; a run without initial rounds writes no deviation (null, not "NaN"). */
    @Test
    void piecewiseLadderAndNoRoundsReport() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--method", "rts", "--ladder", "piecewise:0.5/10,1/10", "--rounds", "0",
                "--chains", "20", "--sweeps", "100", "--json");
        assertEquals(0, o.code(), o.err());
        JsonNode report = o.json();
        assertEquals(21, report.get("levels").asInt());
        assertTrue(report.get("finalDeviation").isNull(), o.out());
        assertFalse(report.get("converged").asBoolean());
    }

    @Test
    void emulatedCudaAgreesWithTheCpuOnTheDemo() throws IOException {
        Emulator.require();
        for (String method : List.of("ais", "arm")) {
            String[] sizes = method.equals("ais") ? new String[] {"--chains", "100", "--steps", "100"}
                    : new String[] {"--particles", "100", "--gibbs-steps", "2"};
            JsonNode[] runs = new JsonNode[2];
            String[] backends = {"cpu", "cuda-emulated"};
            for (int i = 0; i < 2; i++) {
                List<String> args = new java.util.ArrayList<>(List.of("estimate", "--method", method, "--backend", backends[i],
                        "--json", "--seed", "3"));
                args.addAll(List.of(sizes));
                Cli.Outcome o = Cli.run(args.toArray(String[]::new));
                assertEquals(0, o.code(), o.err());
                runs[i] = o.json();
            }
            assertEquals("cuda-emulated", runs[1].get("backend").asText());
            assertEquals(runs[0].get("logZ").asDouble(), runs[1].get("logZ").asDouble(), 0.05, method + " on cpu and cuda-emulated");
        }
    }

    @Test
    void theGpuBackendWithoutAGpuIsAOneLineError() {
        String reason = new org.logz.cuda.CudaBackendProvider().unavailableReason();
        org.junit.jupiter.api.Assumptions.assumeFalse(reason.isEmpty(), "a GPU is present");
        Cli.assertUserError(Cli.run("estimate", "--backend", "cuda"), "backend 'cuda' is not available: " + reason);
    }
}
