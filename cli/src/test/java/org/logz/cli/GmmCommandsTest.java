package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.logz.model.gmm.GaussianMixture;

/** {@code --model gmm:...}: the closed form in {@code logz exact}, the method families with HMC, and refusals. */
class GmmCommandsTest {
    private static final String MODEL = "gmm:d=4,sep=4";

    private static double exact() {
        return new GaussianMixture(4, 4, 1, 0.7, 0.5, 3, org.logz.kernel.HmcSettings.defaults()).logZ();
    }

    @Test
    void exactIsTheClosedForm() throws IOException {
        Cli.Outcome o = Cli.run("exact", "--model", MODEL);
        assertEquals(0, o.code(), o.err());
        assertEquals(exact(), o.json().get("logZ").asDouble(), 1e-12);
    }

    /** One method of each family the mixture runs, near the closed form. */
    @Test
    void everyFamilyLandsNearTheClosedForm() throws IOException {
        String[][] runs = {
            {"--method", "ais", "--chains", "300", "--steps", "200"},
            {"--method", "bar", "--chains", "200", "--steps", "100"},
            {"--method", "rts", "--chains", "40", "--levels", "20", "--sweeps", "400"},
            {"--method", "smc", "--particles", "300", "--replicates", "4"},
        };
        for (String[] run : runs) {
            assertEquals(exact(), Cli.estimateNearExact(MODEL, 3, 0.1, run).get("exactLogZ").asDouble(), 1e-12);
        }
    }

    @Test
    void badSpecsAreUserErrors() {
        Cli.assertUserError(Cli.run("estimate", "--model", "gmm:d=4,colour=red"), "unknown parameter 'colour'");
        Cli.assertUserError(Cli.run("estimate", "--model", "gmm:step=-1"), "step size");
        Cli.assertUserError(Cli.run("exact", "--model", "gmm:w=2"), "weight w");
    }
}
