package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * {@code --path marginal} (Habeck 2017, §6.3) on the demo RBM (64×16, exact by enumeration): every tempered method
 * family runs on it and lands within max(4 SE, 0.1) of the exact log Z, the report names the path, and what does not
 * apply is refused with one line.
 */
class MarginalPathCommandsTest {
    private static void assertLands(String... options) throws IOException {
        String[] args = new String[options.length + 4];
        args[0] = "estimate";
        args[1] = "--json";
        args[2] = "--path";
        args[3] = "marginal";
        System.arraycopy(options, 0, args, 4, options.length);
        Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertTrue(j.get("path").asText().contains("marginal path over the hidden units"), o.out());
        double bound = Math.max(4 * j.get("stderr").asDouble(), 0.1);
        assertTrue(Math.abs(j.get("error").asDouble()) <= bound, String.join(" ", options) + ": " + o.out());
    }

    @Test
    void annealingAndWorkMethodsLand() throws IOException {
        assertLands("--method", "ais", "--chains", "200", "--steps", "300");
        assertLands("--method", "raise", "--chains", "200", "--steps", "300");
        assertLands("--method", "bar", "--data", "digits", "--chains", "200", "--steps", "200");
        assertLands("--method", "histogram", "--chains", "200", "--steps", "200");
    }

    @Test
    void temperedParallelAndSmcMethodsLand() throws IOException {
        assertLands("--method", "rts", "--chains", "50", "--levels", "30", "--sweeps", "1000", "--round-sweeps", "50",
                "--rounds", "3");
        assertLands("--method", "mbar", "--chains", "50", "--levels", "30", "--sweeps", "1000", "--round-sweeps", "50",
                "--rounds", "3");
        assertLands("--method", "pt", "--ladders", "8", "--levels", "12", "--sweeps", "1000", "--rounds", "2");
        assertLands("--method", "smc", "--particles", "300");
    }

    @Test
    void whatDoesNotApplyIsRefused() {
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--path", "marginal"), "--path applies to RBMs only");
        Cli.assertUserError(Cli.run("estimate", "--path", "sideways"), "--path must be full, marginal or mas");
        Cli.assertUserError(Cli.run("estimate", "--path", "mas:knots=-1"), "0 to 1000 interior knots");
        Cli.assertUserError(Cli.run("estimate", "--path", "mas:speed=2"), "unknown key 'speed'");
        Cli.assertUserError(Cli.run("estimate", "--path", "marginal", "--base-rate", "uniform"),
                "--base-rate does not apply to --path marginal");
        Cli.assertUserError(Cli.run("estimate", "--path", "marginal", "--method", "arm"),
                "--path does not apply to --method arm");
    }

    /**
     * The moment-averages path (Grosse et al. 2013): knot RBMs fitted to averaged moments; AIS and BAR on it land on the
     * demo's exact log Z, the report names the path and its fit, and the tempered methods, which move chains between
     * levels, are refused.
     */
    @Test
    void theMomentAveragesPathLands() throws IOException {
        for (String method : new String[] {"ais", "bar"}) {
            Cli.Outcome o = Cli.run("estimate", "--json", "--path", "mas:knots=4,chains=50,updates=100", "--method", method,
                    "--chains", "200", "--steps", "300");
            assertEquals(0, o.code(), o.err());
            JsonNode j = o.json();
            assertTrue(j.get("path").asText().contains("moment-averages path (4 knots fitted"), o.out());
            assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), 0.1), o.out());
        }
        // refused before any fit: the tempered methods, the SMC sampler and --tolerance's parallel tempering
        for (String method : new String[] {"rts", "pt", "smc"}) {
            Cli.assertUserError(Cli.run("estimate", "--path", "mas", "--method", method),
                    "--path mas runs the annealing methods");
        }
        Cli.assertUserError(Cli.run("estimate", "--path", "mas", "--tolerance", "0.5"), "--path mas runs the annealing");
    }

    @Test
    void theFullPathStaysTheDefault() throws IOException {
        Cli.Outcome full = Cli.run("estimate", "--json", "--chains", "50", "--steps", "100");
        Cli.Outcome named = Cli.run("estimate", "--json", "--chains", "50", "--steps", "100", "--path", "full");
        assertEquals(0, full.code(), full.err());
        assertEquals(full.json().get("logZ").asDouble(), named.json().get("logZ").asDouble(), 0.0);
        assertTrue(full.json().get("path").asText().contains("base rate"), full.out());
    }
}
