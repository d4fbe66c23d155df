package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.NpyArray;
import org.logz.io.Npz;

/**
 * {@code --model mixture:...} and data annealing (rm, arm on the mixture posterior and on a GLMM's groups) on the
 * command line: exact values, estimates against them within max(4 SE, absolute), and what is refused.
 */
class DataAnnealingCommandsTest {
    @TempDir
    Path dir;

    private static void assertNear(Cli.Outcome o, double absolute) throws IOException {
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), absolute), o.out());
    }

    @Test
    void exactSumsTheAllocationsWhereItCan() throws IOException {
        Cli.Outcome o = Cli.run("exact", "--model", "mixture:sim12");
        assertEquals(0, o.code(), o.err());
        assertEquals(-42.70734, o.json().get("logZ").asDouble(), 1e-5);
        assertTrue(o.json().get("formula").asText().contains("2^12 allocations"), o.out());
        Cli.assertUserError(Cli.run("exact", "--model", "mixture:sim200"), "no exact value");
    }

    @Test
    void armSmcAndRmLandOnTheExactValue() throws IOException {
        assertNear(Cli.run("estimate", "--model", "mixture:sim12", "--method", "arm", "--particles", "1000", "--json"), 0.1);
        assertNear(Cli.run("estimate", "--model", "mixture:sim12", "--method", "smc", "--particles", "1000",
                "--ess-target", "0.9", "--json"), 0.1);
        assertNear(Cli.run("estimate", "--model", "mixture:sim12", "--method", "rm", "--order", "random:3",
                "--particles", "1000", "--json"), 0.1);
    }

    /** A GLMM's groups enter one at a time; the quadrature evidence over θ is the reference. */
    @Test
    void glmmGroupsAnnealUnderArm() throws IOException {
        assertNear(Cli.run("estimate", "--model", "glmm:sim8", "--method", "arm", "--particles", "150", "--gibbs-steps",
                "3", "--json"), 0.25);
    }

    @Test
    void whatDoesNotApplyIsRefused() {
        Cli.assertUserError(Cli.run("estimate", "--model", "mixture:sim12", "--method", "rts"),
                "does not run on a Gaussian mixture posterior");
        Cli.assertUserError(Cli.run("estimate", "--model", "mixture:sim12", "--method", "arm-reseed"), "use rm, arm or");
        Cli.assertUserError(Cli.run("estimate", "--model", "mixture:sim12", "--method", "rm", "--order", "variance"),
                "natural) or random:SEED");
        Cli.assertUserError(Cli.run("estimate", "--model", "mixture:sim12", "--inner", "4"), "applies to latent-variable");
        Cli.assertUserError(Cli.run("estimate", "--model", "sv:sim200", "--method", "arm"), "does not factor over points");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "rm", "--inner", "16"),
                "exact likelihood");
        Cli.assertUserError(Cli.run("estimate", "--model", "mixture:nope"), "neither a shipped set");
    }

    @Test
    void malformedMixturesAreExitTwo() throws IOException {
        Path noWeights = dir.resolve("noweights.npz");
        Npz.write(noWeights, List.of(NpyArray.ofDoubles("y", new int[] {2, 1}, new double[] {0, 1})));
        Cli.assertUserError(Cli.run("exact", "--model", "mixture:" + noWeights), "no array weights");
        Path badSum = dir.resolve("badsum.npz");
        Npz.write(badSum, List.of(NpyArray.ofDoubles("y", new int[] {2, 1}, new double[] {0, 1}),
                NpyArray.ofDoubles("weights", new int[] {2}, new double[] {0.5, 0.6}),
                NpyArray.ofDoubles("sigma", new int[] {}, new double[] {1}),
                NpyArray.ofDoubles("prior_sd", new int[] {}, new double[] {1})));
        Cli.assertUserError(Cli.run("estimate", "--model", "mixture:" + badSum, "--method", "arm"), "sum to");
        Path flat = dir.resolve("flat.npz");
        Npz.write(flat, List.of(NpyArray.ofDoubles("y", new int[] {2}, new double[] {0, 1}),
                NpyArray.ofDoubles("weights", new int[] {1}, new double[] {1}),
                NpyArray.ofDoubles("sigma", new int[] {}, new double[] {1}),
                NpyArray.ofDoubles("prior_sd", new int[] {}, new double[] {1})));
        Cli.assertUserError(Cli.run("exact", "--model", "mixture:" + flat), "expected (n, d)");
    }
}
