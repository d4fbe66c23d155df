package org.logz.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.cli.Cli;
import org.logz.cli.Main;

/** {@code logz bench} as the cli finds it on the class path: its place among the commands, --debug and its refusals. */
class BenchCommandTest {

    /** Plugged in where it was built in (reproduce, which the bench module brings, after it): after train, before backends. */
    @Test
    void benchIsACommandOfLogz() {
        Cli.assertUserError(Cli.run(), "one of estimate, grid, exact, bar, train, bench, reproduce, backends");
        Cli.Outcome help = Cli.run("bench", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: logz bench "), help.out());
    }

    /** The inherited --debug reaches a plugged-in command's subcommands. */
    @Test
    void debugAfterANestedSubcommandPrintsTheTrace() {
        Cli.Outcome nested = Cli.run("bench", "sweep", "--chains", "0", "--debug");
        assertEquals(Main.USER_ERROR, nested.code());
        assertTrue(nested.err().contains("\tat "), "--debug after a nested subcommand: " + nested.err());
    }

    @Test
    void impossibleRequestsAreRefusedUpFront() {
        Cli.assertUserError(Cli.run("bench", "sweep", "--chains", "2147483647"), "bench sweep with 2147483647 chains");
        // the projection: its options only with --project, states that fit the GPU, a survey that can run
        Cli.assertUserError(Cli.run("bench", "sweep", "--project-chains", "5"), "--project-chains applies only with");
        Cli.assertUserError(Cli.run("bench", "sweep", "--project", "h100", "--project-chains", "2147483647"),
                "more than the H100 SXM5's 80 GB");
        Cli.assertUserError(Cli.run("bench", "sweep", "--project", "a100", "--chains", "1"), "at least 2 chains");
        Cli.assertUserError(Cli.run("bench"), "a benchmark is missing");
        Cli.assertUserError(Cli.run("bench", "aisel", "--model", "glmm:sim8", "--likelihoods", ";"), "lists nothing to run");
        Cli.assertUserError(Cli.run("bench", "aisel", "--model", "glmm:sim8", "--likelihoods", " prior:4 ;prior:4"),
                "appears twice");
    }

    /** Benchmark budgets below one sweep are a user error naming --budgets. */
    @Test
    void benchBudgetsMustBePositive() {
        Cli.assertUserError(Cli.run("bench", "tempered", "--model", "ising:L=4", "--budgets=-5"), "--budgets");
        Cli.assertUserError(Cli.run("bench", "tempered", "--model", "ising:L=4", "--budgets=500,0"), "--budgets");
    }

    /**
     * A model without an exact log Z runs against --reference, and the report says so; beside an exact log Z a reference
     * is refused, and without either the bench says what it needs.
     */
    @Test
    void comparisonsRunAgainstAReferenceWhereNoExactValueExists(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path large = dir.resolve("large.npz");
        org.logz.model.rbm.RbmFiles.write(large, org.logz.model.RandomRbm.create(40, 40, 0.1, 7), java.util.Optional.empty());
        Cli.Outcome o = Cli.run("bench", "tempered", "--model", large.toString(), "--reference", "48.5:0.2", "--budgets",
                "20", "--seeds", "2", "--chains", "4", "--levels", "4", "--round-sweeps", "5", "--rounds", "1");
        assertEquals(0, o.code(), o.err());
        com.fasterxml.jackson.databind.JsonNode against = new com.fasterxml.jackson.databind.ObjectMapper().readTree(o.out())
                .get("against");
        assertEquals("reference", against.get("kind").asText());
        assertEquals(48.5, against.get("logZ").asDouble());
        assertEquals(0.2, against.get("stdErr").asDouble());
        Cli.assertUserError(Cli.run("bench", "tempered", "--model", large.toString(), "--budgets", "20"),
                "bench tempered needs a model with an exact log Z or a reference");
        Cli.assertUserError(Cli.run("bench", "schedules", "--model", "ising:L=4", "--reference", "20"),
                "has an exact log Z");
        Cli.assertUserError(Cli.run("bench", "work", "--model", large.toString(), "--reference", "48.5:x"),
                "--reference takes LOGZ or LOGZ:SE");
    }

    /**
     * Habeck's Fig. 4A: with --budget each row anneals B/N steps (K × N fixed); a model without an exact log Z or a
     * reference leaves the column empty instead of being refused, and an ordered Potts lattice is measured against the
     * low-temperature expansion; budgets that are no multiple of a row's N, or --steps beside them, are
     * refused.
     */
    @Test
    void workHoldsTheBudgetFixedAcrossRows() throws java.io.IOException {
        Cli.Outcome o = Cli.run("bench", "work", "--model", "potts:q=3,L=4", "--chains", "20", "--budget", "60",
                "--sweeps-per-step", "1,3");
        assertEquals(0, o.code(), o.err());
        com.fasterxml.jackson.databind.JsonNode rows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(o.out())
                .get("rows");
        assertEquals(60, rows.get(0).get("steps").asInt());
        assertEquals(20, rows.get(1).get("steps").asInt());
        // disordered (J below ln(1 + √10)): neither the transfer matrix nor the low-temperature expansion applies
        Cli.Outcome large = Cli.run("bench", "work", "--model", "potts:q=10,L=8,J=1", "--chains", "2", "--budget", "2");
        assertEquals(0, large.code(), large.err());
        assertTrue(large.out().contains("| – |"), "no exact value for q = 10, L = 8, J = 1: " + large.out());
        Cli.Outcome ordered = Cli.run("bench", "work", "--model", "potts:q=10,L=8", "--chains", "2", "--budget", "2");
        assertEquals(0, ordered.code(), ordered.err());
        assertTrue(ordered.out().contains("the low-temperature expansion"), ordered.out());
        Cli.assertUserError(Cli.run("bench", "work", "--model", "potts:q=3,L=4", "--budget", "50", "--sweeps-per-step",
                "1,3"), "not of 3");
        Cli.assertUserError(Cli.run("bench", "work", "--model", "potts:q=3,L=4", "--budget", "60", "--steps", "5"),
                "leave out --steps");
    }
}
