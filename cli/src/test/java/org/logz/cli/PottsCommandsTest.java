package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.logz.api.Logz;
import org.logz.testkit.Accuracy;

/**
 * {@code --model potts:...} on the command line: estimates beside the transfer matrix with log Z - N ln q (Habeck's
 * form) in text and JSON, {@code logz exact}, Metropolis moves, the Java API's agreement, and bad specs refused.
 */
class PottsCommandsTest {
    private static JsonNode ok(String... args) throws IOException {
        Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.code(), o.err());
        return o.json();
    }

    @Test
    void barReportsLogZAndHabecksFormAgainstTheTransferMatrix() throws IOException {
        JsonNode j = ok("estimate", "--model", "potts:q=3,L=4", "--method", "bar", "--chains", "200", "--steps", "300",
                "--seed", "2", "--json");
        assertEquals("potts:q=3,L=4,J=2", j.get("model").asText());
        assertEquals("ground", j.get("start").asText());
        double exact = j.get("exactLogZ").asDouble();
        Accuracy.assertLands("cli bar on potts:q=3,L=4", j.get("logZ").asDouble(), j.get("stderr").asDouble(), exact, 0.1,
                0.2);
        JsonNode c = j.get("convention");
        assertEquals("N ln q", c.get("term").asText());
        assertEquals(16 * Math.log(3), c.get("offset").asDouble(), 1e-12);
        assertEquals(j.get("logZ").asDouble() - 16 * Math.log(3), c.get("logZ").asDouble(), 1e-9);
        assertEquals(exact - 16 * Math.log(3), c.get("exactLogZ").asDouble(), 1e-9);
        Cli.Outcome text = Cli.run("estimate", "--model", "potts:q=10,L=32", "--method", "ais", "--chains", "4", "--steps",
                "5", "--seed", "1");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("model    potts:q=10,L=32,J=2"), text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.matches(" +log Z - N ln q = -?[0-9.]+ \\(N ln q = 2357\\.8471\\)")),
                text.out());
        assertTrue(!text.out().contains("exact "), "no exact value for 32×32: " + text.out());
    }

    @Test
    void metropolisRtsLandsOnTheTransferMatrix() throws IOException {
        JsonNode j = ok("estimate", "--model", "potts:q=3,L=4,J=1.5,moves=metropolis", "--method", "rts", "--levels", "30",
                "--sweeps", "500", "--seed", "3", "--json");
        assertTrue(j.get("path").asText().contains("metropolis sweep"), j.get("path").asText());
        Accuracy.assertLands("cli rts on metropolis potts", j.get("logZ").asDouble(), j.get("stderr").asDouble(),
                j.get("exactLogZ").asDouble(), 0.1, 0.2);
    }

    @Test
    void exactPrintsTheTransferMatrixAndRefusesLargeLattices() throws IOException {
        JsonNode j = ok("exact", "--model", "potts:q=2,L=4,J=1");
        assertEquals("transfer matrix", j.get("formula").asText());
        assertEquals(j.get("logZ").asDouble() - 16 * Math.log(2), j.get("convention").get("logZ").asDouble(), 1e-9);
        Cli.assertUserError(Cli.run("exact", "--model", "potts:q=10,L=8"), "exact log Z needs R·L²·q^L ≤ 1e10");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=10,L=8", "--method", "ais", "--compare-exact"),
                "--compare-exact: potts:q=10,L=8,J=2 has no exact log Z within reach");
        JsonNode strong = ok("exact", "--model", "potts:q=3,L=4,J=89");
        assertEquals(Math.log(3) + 32 * 89, strong.get("logZ").asDouble(), 1e-9 * 2849, "no overflow at 2LJ > 709");
    }

    @Test
    void aConsensusReportsHabecksFormToo() throws IOException {
        JsonNode j = ok("estimate", "--model", "potts:q=3,L=4", "--tolerance", "0.5", "--seed", "1", "--json");
        assertEquals(j.get("logZ").asDouble() - 16 * Math.log(3), j.get("convention").get("logZ").asDouble(), 1e-9);
        Cli.Outcome text = Cli.run("estimate", "--model", "potts:q=3,L=4", "--tolerance", "0.5", "--seed", "1");
        assertTrue(text.out().contains("log Z - N ln q = "), text.out());
    }

    @Test
    void badSpecsAreRefusedWithOneLine() {
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=1,L=4", "--method", "ais"), "q must be from 2 to 255");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=10,L=5", "--method", "ais"), "must be even");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=10,L=4,J=inf", "--method", "ais"), "J = 'inf'");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=10,L=4,L=6", "--method", "ais"), "L is given twice");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=10,L=4,beta=1", "--method", "ais"), "'beta'");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=3,L=4", "--method", "rm"), "rm");
        Cli.assertUserError(Cli.run("estimate", "--model", "potts:q=3,L=4", "--method", "bar", "--reverse-start", "data"),
                "--reverse-start");
    }

    /** The Java API's Logz.potts runs what the command line runs, to the bit. */
    @Test
    void javaApiAgreesWithTheCommandLine() throws IOException {
        double api = Logz.potts(3, 4, 2).ais().chains(50).steps(40).seed(4).run().logZ();
        JsonNode cli = ok("estimate", "--model", "potts:q=3,L=4", "--method", "ais", "--chains", "50", "--steps", "40",
                "--seed", "4", "--json");
        assertEquals(cli.get("logZ").asDouble(), api);
    }
}
