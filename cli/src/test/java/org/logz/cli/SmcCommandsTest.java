package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --method smc} and its power-posterior readings, VAROPT schedules, and what they refuse. */
class SmcCommandsTest {
    @TempDir
    Path dir;

    /** Adaptive SMC on the demo RBM and the Ising model near the exact log Z, every reading and the trace in the JSON. */
    @Test
    void adaptiveSmcReportsEveryEstimateAndItsTrace() throws IOException {
        Path plot = dir.resolve("smc.png");
        Cli.Outcome o = Cli.run("estimate", "--method", "smc", "--particles", "200", "--json", "--plot", plot.toString());
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), 0.1), o.out());
        assertEquals("Lee-Whiteley (single run)", j.get("stderrMethod").asText(), "multinomial by default");
        assertEquals("multinomial", j.get("resampling").asText());
        for (String m : new String[] {"smc", "power-posterior", "power-posterior-corrected"}) {
            assertTrue(Math.abs(j.get("estimates").get(m).get("logZ").asDouble() - j.get("exactLogZ").asDouble()) < 0.2,
                    m + ": " + o.out());
        }
        JsonNode trace = j.get("trace");
        assertEquals(j.get("stepCount").asInt() + 1, trace.size());
        assertEquals(1.0, trace.get(trace.size() - 1).get("beta").asDouble());
        assertEquals(0.999, j.get("essTarget").asDouble());
        assertTrue(Files.size(plot) > 1000);
        Cli.Outcome ti = Cli.run("estimate", "--model", "ising:L=6", "--method", "power-posterior-corrected", "--particles",
                "200", "--schedule", "linear", "--steps", "200", "--replicates", "3", "--json");
        assertEquals(0, ti.code(), ti.err());
        assertEquals("power-posterior-corrected", ti.json().get("method").asText());
        assertTrue(Math.abs(ti.json().get("error").asDouble()) < 0.3, ti.out());
    }

    /** VAROPT for AIS and the bidirectional runs: the pilot's sweeps are reported and counted. */
    @Test
    void varoptSchedulesCountTheirPilot() throws IOException {
        Cli.Outcome ais = Cli.run("estimate", "--method", "ais", "--chains", "200", "--steps", "300", "--schedule",
                "varopt:pilot=50,chains=40", "--json");
        assertEquals(0, ais.code(), ais.err());
        JsonNode j = ais.json();
        assertEquals(49 * 40, j.get("pilotSweeps").asLong());
        assertEquals(299 * 200 + 49 * 40, j.get("sweeps").asLong());
        assertTrue(j.get("schedule").asText().startsWith("varopt:pilot=50"), ais.out());
        assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), 0.1), ais.out());
        Cli.Outcome bar = Cli.run("estimate", "--method", "bar", "--chains", "100", "--steps", "200", "--schedule",
                "varopt:pilot=50,max-step=0.02", "--json");
        assertEquals(0, bar.code(), bar.err());
        assertTrue(bar.json().get("pilotSweeps").asLong() > 0, bar.out());
    }

    /** Few particles warn that the single-run error is too small; replicates give every reading an error. */
    @Test
    void fewParticlesWarnAndReplicatesGiveEveryReadingAnError() throws IOException {
        Cli.Outcome few = Cli.run("estimate", "--method", "smc", "--particles", "50", "--ess-target", "0.9", "--json");
        assertEquals(0, few.code(), few.err());
        assertTrue(few.err().contains("few-particles"), few.err());
        Cli.Outcome replicated = Cli.run("estimate", "--method", "smc", "--particles", "120", "--ess-target", "0.9",
                "--replicates", "3", "--json");
        assertEquals(0, replicated.code(), replicated.err());
        JsonNode pp = replicated.json().get("estimates").get("power-posterior");
        assertTrue(pp.get("stderr").asDouble() > 0, replicated.out());
    }

    @Test
    void whatDoesNotApplyIsRefused() {
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--steps", "100"), "adaptive tempering chooses its own");
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--schedule", "linear", "--ess-target", "0.5"),
                "--ess-target applies to adaptive tempering");
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--ess-target", "1"), "must lie in (0, 1)");
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--ess-target", "0x1p-1"), "not a finite decimal");
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--resample-threshold", "0.5d"), "not a finite decimal");
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--chains", "10"), "--particles");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--ess-target", "0.5"), "--ess-target does not apply");
        Cli.Outcome capped = Cli.run("estimate", "--method", "smc", "--max-steps", "3");
        assertEquals(1, capped.code(), "a run that reaches its cap fails: " + capped.err());
        assertTrue(capped.err().contains("cap of 3 steps") && capped.err().contains("--max-steps"), capped.err());
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--schedule", "varopt:speed=3"), "unknown key 'speed'");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--steps", "10", "--schedule", "varopt:max-step=0.01"),
                "cannot cover [0, 1] in 10 steps");
    }
}
