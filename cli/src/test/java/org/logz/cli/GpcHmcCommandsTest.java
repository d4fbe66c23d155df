package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.GpClassification;
import org.logz.model.gpc.GpcExact;

/** {@code --kernel hmc[:...]} on GP classification: ARM Fig. 2's HMC baselines near the closed form, and refusals. */
class GpcHmcCommandsTest {
    @TempDir
    Path dir;

    private String threeCases() {
        Path file = dir.resolve("three.npz");
        Npz.write(file, List.of(NpyArray.ofDoubles("X", new int[] {3, 1}, new double[] {0, 0.4, 1.1}),
                NpyArray.ofDoubles("y", new int[] {3}, new double[] {1, 0, 1}),
                NpyArray.ofDoubles("log_ell", new int[] {}, new double[] {0}),
                NpyArray.ofDoubles("log_sigma", new int[] {}, new double[] {1.5})));
        return "gpc:" + file;
    }

    private static double exact() {
        return GpcExact.logZ(GpClassification.squaredExponential(new double[][] {{0}, {0.4}, {1.1}}, new int[] {1, -1, 1},
                0, 1.5, "three"));
    }

    @Test
    void hmcFromEpAndFromThePriorLandNearTheClosedForm() throws IOException {
        String model = threeCases();
        String[][] runs = {
            {"--method", "ais", "--kernel", "hmc", "--chains", "200", "--steps", "30"},
            {"--method", "ais", "--kernel", "hmc", "--start", "prior", "--chains", "300", "--steps", "200", "--schedule",
                "geometric"},
            {"--method", "bar", "--kernel", "hmc:leapfrog=20,step=auto", "--chains", "200", "--steps", "50"},
        };
        for (String[] run : runs) {
            assertEquals(exact(), Cli.estimateNearExact(model, 5, 0.1, run).get("exactLogZ").asDouble(), 1e-12);
        }
    }

    @Test
    void kernelOptionsAreCheckedAndRefusedWhereTheyDoNotApply() {
        String model = threeCases();
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--kernel", "gibbs"),
                "--kernel must be ellipse or hmc");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--kernel", "hmc:mass=2"),
                "unknown parameter 'mass'");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--kernel", "hmc:step=0"),
                "step size");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--method", "ais", "--kernel", "hmc"),
                "--kernel applies to");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "arm", "--kernel", "hmc"), "--kernel");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--kernel", "hmc:"),
                "--kernel hmc:: write hmc:key=value");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--kernel",
                "hmc:leapfrog=5,leapfrog=6"), "leapfrog is given twice");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--kernel", "hmc:step=auto",
                "--checkpoint", "run.ckpt"), "--checkpoint and --resume: an HMC step size adapted on the fly");
    }
}
