package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --method aisel} and the latent-variable models on the command line, and what they refuse. */
class AiselCommandsTest {
    @TempDir
    Path dir;

    /** AISEL with --inner auto on the shipped 8-group GLMM near its quadrature evidence; every part in the JSON. */
    @Test
    void aiselReportsBothEstimatesAndHowNWasChosen() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--particles", "300",
                "--inner", "auto:1", "--ess-target", "0.9", "--proposal", "prior", "--json");
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), 0.2), o.out());
        assertTrue(Math.abs(j.get("estimates").get("power-posterior").get("logZ").asDouble()
                - j.get("exactLogZ").asDouble()) < 0.3, o.out());
        assertTrue(j.get("inner").asInt() >= 1 && j.get("innerChoice").get("targetVariance").asDouble() == 1.0, o.out());
        assertEquals("prior", j.get("proposal").asText());
        assertTrue(j.get("logLikelihoodVariance").asDouble() < 4, o.out());
        assertTrue(j.get("center").has("log_tau") && j.get("tau").asDouble() > 0, o.out());
        assertEquals(j.get("stepCount").asInt() + 1, j.get("trace").size());
    }

    /** The exact likelihood through smc and ais; the SV model through aisel with a fixed N. */
    @Test
    void exactLikelihoodAndParticleFilterRun() throws IOException {
        Cli.Outcome smc = Cli.run("estimate", "--model", "glmm:sim8", "--method", "smc", "--likelihood", "exact",
                "--particles", "200", "--ess-target", "0.9", "--json");
        assertEquals(0, smc.code(), smc.err());
        assertTrue(Math.abs(smc.json().get("error").asDouble()) <= Math.max(4 * smc.json().get("stderr").asDouble(), 0.2),
                smc.out());
        Cli.Outcome ais = Cli.run("estimate", "--model", "glmm:sim8", "--method", "ais", "--chains", "200", "--steps",
                "100", "--inner", "8", "--json");
        assertEquals(0, ais.code(), ais.err());
        Path plot = dir.resolve("sv.png");
        Cli.Outcome sv = Cli.run("estimate", "--model", "sv:sim200", "--method", "aisel", "--particles", "60", "--inner",
                "20", "--ess-target", "0.5", "--plot", plot.toString(), "--json");
        assertEquals(0, sv.code(), sv.err());
        assertFalse(sv.json().has("exactLogZ"), sv.out());
        assertTrue(Files.size(plot) > 1000);
    }

    @Test
    void whatDoesNotApplyIsRefused() {
        Cli.assertUserError(Cli.run("estimate", "--method", "aisel"), "needs a latent-variable model");
        Cli.assertUserError(Cli.run("estimate", "--inner", "4"), "applies to latent-variable models");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "rts"), "does not run on latent");
        Cli.assertUserError(Cli.run("estimate", "--model", "sv:sim200", "--method", "smc", "--likelihood", "exact"),
                "has no exact likelihood");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--likelihood", "exact"),
                "--method smc --likelihood exact");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--inner", "0"),
                "between 1 and");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--inner", "many"),
                "--inner must be");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "ais", "--inner", "auto"),
                "--inner auto applies to --method aisel");
        Cli.assertUserError(Cli.run("estimate", "--model", "sv:sim200", "--method", "aisel", "--proposal", "laplace"),
                "does not apply to");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:nope", "--method", "aisel"), "neither a shipped set");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--schedule", "varopt"),
                "--schedule varopt does not apply");
    }

    @Test
    void malformedDataIsExitTwo() throws IOException {
        Path file = dir.resolve("bad.npz");
        org.logz.io.Npz.write(file, java.util.List.of(
                org.logz.io.NpyArray.ofDoubles("y", new int[] {3}, new double[] {0, 1, 2}),
                org.logz.io.NpyArray.ofDoubles("X", new int[] {3, 1}, new double[] {1, 1, 1}),
                org.logz.io.NpyArray.ofDoubles("group", new int[] {3}, new double[] {0, 0, 1})));
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:" + file, "--method", "aisel"), "responses are 0 or 1");
        Cli.assertUserError(Cli.run("exact", "--model", "glmm:" + file), "responses are 0 or 1");
    }

    /** Findings of the hostile review of AISEL, each now a clear refusal. */
    @Test
    void degenerateDataAndAbsurdCostsAreRefusedWithTheirReason() throws IOException {
        Path constant = dir.resolve("constant.npz");
        double[] ones = new double[20];
        double[] big = new double[20];
        double[] groups = new double[20];
        for (int i = 0; i < 20; i++) {
            ones[i] = 1;
            big[i] = 1e6;
            groups[i] = i / 4;
        }
        org.logz.io.Npz.write(constant, java.util.List.of(org.logz.io.NpyArray.ofDoubles("y", new int[] {20}, ones),
                org.logz.io.NpyArray.ofDoubles("X", new int[] {20, 1}, big),
                org.logz.io.NpyArray.ofDoubles("group", new int[] {20}, groups)));
        // the posterior of β is a step, not a Gaussian: the quadrature's two rules disagree and no value is printed
        Cli.assertUserError(Cli.run("exact", "--model", "glmm:" + constant), "the quadrature evidence did not converge");
        Path labels = dir.resolve("labels.npz");
        groups[19] = 2147483646;
        org.logz.io.Npz.write(labels, java.util.List.of(org.logz.io.NpyArray.ofDoubles("y", new int[] {20}, ones),
                org.logz.io.NpyArray.ofDoubles("X", new int[] {20, 1}, ones),
                org.logz.io.NpyArray.ofDoubles("group", new int[] {20}, groups)));
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:" + labels, "--method", "aisel"), "below the 20 observations");
        Path zeros = dir.resolve("zeros.npz");
        org.logz.io.Npz.write(zeros, java.util.List.of(org.logz.io.NpyArray.ofDoubles("y", new int[] {3},
                new double[] {0.5, 0, -0.2})));
        Cli.assertUserError(Cli.run("estimate", "--model", "sv:" + zeros, "--method", "aisel"), "y[1] is 0.0");
        Cli.assertUserError(Cli.run("estimate", "--model", "sv:sim200", "--method", "aisel", "--inner", "1048576",
                "--particles", "1000"), "beyond --max-seconds 3600");
    }

    /**
     * The hostile review's inner_fixed_max and inner_auto_1e_9_: runs of hours that went through silently are refused
     * from the estimate of their whole cost (after the pilot, for --inner auto), and --max-seconds moves the line.
     */
    @Test
    void runsOfHoursAreRefusedUpFront() {
        Cli.Outcome fixed = Cli.run("estimate", "--model", "sv:sim200", "--method", "aisel", "--inner", "1048576",
                "--particles", "50");
        Cli.assertUserError(fixed, "about 6.31 hours");
        assertTrue(fixed.err().contains("64 steps (adaptive at ρ = 0.999, at least) × 1 moves"), fixed.err());
        Cli.Outcome auto = Cli.run("estimate", "--model", "sv:sim200", "--method", "aisel", "--inner", "auto:1e-9",
                "--particles", "20");
        Cli.assertUserError(auto, "1048576 inner draws");
        assertTrue(auto.err().contains("from the pilot's"), auto.err());
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--inner", "64",
                "--particles", "100", "--schedule", "linear", "--steps", "50", "--max-seconds", "0.01"),
                "50 steps (the schedule's steps)");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "aisel", "--max-seconds", "-1"),
                "--max-seconds must be positive");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "smc", "--max-seconds", "10"),
                "--max-seconds");
    }
}
