package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.RbmFiles;
import org.logz.testkit.Accuracy;

/** The tempered and nonequilibrium methods, the Ising and Gaussian toy models, and {@code logz bar} on the command line. */
class EstimateMethodsTest {
    @TempDir
    Path dir;

    private static JsonNode ok(String... args) throws IOException {
        Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.code(), o.err());
        return o.json();
    }

    private Path smallModel() throws IOException {
        Path model = dir.resolve("m.npz");
        RbmFiles.write(model, RandomRbm.create(10, 6, 1.0, 3), Optional.empty());
        return model;
    }

    /** {@code logz estimate --model M --method rts --seed 1} works with no further flags and says what it used. */
    @Test
    void temperedMethodsRunWithDefaultsAndReportEveryEstimator() throws IOException {
        JsonNode j = ok("estimate", "--model", smallModel().toString(), "--method", "rts", "--seed", "1", "--json",
                "--compare-exact");
        for (String field : List.of("method", "backend", "logZ", "stderr", "stderrMethod", "seconds", "estimates", "chains",
                "levels", "ladder", "prior", "sweeps", "roundSweeps", "maxRounds", "initialZ", "initialRounds", "converged",
                "batches", "deltaMethod", "mbarSamples", "chainSweeps", "trace", "exactLogZ")) {
            assertTrue(j.has(field), "missing " + field + " in " + j);
        }
        assertEquals(100, j.get("chains").asInt());
        assertEquals(100, j.get("levels").asInt());
        assertEquals(100, j.get("trace").size());
        assertTrue(j.get("trace").get(0).has("occupancy"));
        double exact = j.get("exactLogZ").asDouble();
        for (String method : List.of("rts", "ts", "ti", "ti-friel", "ti-rb", "mbar")) {
            JsonNode e = j.get("estimates").get(method);
            Accuracy.assertLands("cli rts on the small RBM: " + method, e.get("logZ").asDouble(), e.get("stderr").asDouble(),
                    exact, 0.1, 0.1);
        }
        // the Riemann sum carries its discretization error in its error; eq. 16's delta method reads the same groups
        JsonNode riemann = j.get("estimates").get("ti-riemann");
        double riemannError = riemann.get("logZ").asDouble() - exact;
        assertTrue(Math.abs(riemannError) < 4 * riemann.get("stderr").asDouble(), riemann.toString());
        assertEquals("ais", j.get("initialZ").asText());
        JsonNode delta = j.get("deltaMethod");
        assertEquals(j.get("estimates").get("rts").get("stderr").asDouble(), delta.get("stdErr").asDouble(),
                0.5 * delta.get("stdErr").asDouble(), delta.toString());
        assertTrue(Math.abs(delta.get("bias").asDouble()) < delta.get("stdErr").asDouble(), delta.toString());
        // Carlson et al.'s start from Ẑ = 1 needs rounds to find Ẑ, and gets there
        JsonNode flat = ok("estimate", "--model", smallModel().toString(), "--method", "ts", "--initial-z", "one",
                "--seed", "2", "--json", "--compare-exact");
        assertEquals("one", flat.get("initialZ").asText());
        assertEquals("ts", flat.get("method").asText());
        assertTrue(flat.get("initialRounds").asInt() > 0 && flat.get("converged").asBoolean(), flat.toString());
        assertEquals(flat.get("trace").get(0).get("initialLogZ").asDouble(),
                flat.get("trace").get(99).get("initialLogZ").asDouble(), 0, "a flat start: log Ẑ_k = log Z_0 everywhere");
        Accuracy.assertLands("cli ts from Ẑ = 1", flat.get("logZ").asDouble(), flat.get("stderr").asDouble(), exact, 0.1,
                0.1);
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--initial-z", "zero"), "--initial-z must be ais or one");
        // two chains in two groups on two levels measure no error: none is printed, rather than ± 0
        JsonNode none = ok("estimate", "--model", "ising:L=4", "--method", "ts", "--levels", "2", "--chains", "2",
                "--sweeps", "20", "--batches", "2", "--json");
        assertTrue(none.get("stderr").isNull(), none.toString());
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--initial-z", "one", "--rounds", "0"),
                "needs initial rounds");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--initial-z", "one"), "--initial-z does not apply");
        JsonNode ti = ok("estimate", "--model", smallModel().toString(), "--method", "ti-rb", "--levels", "20", "--sweeps", "200",
                "--rounds", "3", "--round-sweeps", "20", "--mbar-samples", "0", "--chains", "30", "--json");
        assertEquals(ti.get("estimates").get("ti-rb").get("logZ").asDouble(), ti.get("logZ").asDouble(), 0);
        assertFalse(ti.get("estimates").has("mbar"));
        assertEquals(3 * 20, ti.get("roundSweeps").asInt() * ti.get("maxRounds").asInt());
    }

    /**
     * {@code --method pt} with its defaults on a small RBM: the three readings land, the JSON says what the run did (the
     * tuned ladder, swap rates, barrier, round trips), and its own options are checked.
     */
    @Test
    void parallelTemperingRunsWithDefaultsAndReportsItsLadder() throws IOException {
        JsonNode j = ok("estimate", "--model", smallModel().toString(), "--method", "pt", "--levels", "12", "--ladders", "6",
                "--sweeps", "1000", "--json", "--compare-exact");
        for (String field : List.of("estimates", "headline", "ladders", "levels", "chains", "ladder", "sweeps", "roundSweeps",
                "tuningRounds", "barrier", "tuningBarriers", "roundTrips", "ladderRoundTrips", "mbarSamples", "chainSweeps",
                "trace", "exactLogZ")) {
            assertTrue(j.has(field), "missing " + field + " in " + j);
        }
        assertEquals("pt", j.get("method").asText());
        assertEquals("bar", j.get("headline").asText());
        assertEquals(72, j.get("chains").asInt());
        assertEquals(12, j.get("trace").size());
        assertTrue(j.get("trace").get(0).get("swapRate").isNumber() && j.get("trace").get(11).get("swapRate").isNull(), j.toString());
        assertEquals("batch means over 6 ladders", j.get("stderrMethod").asText());
        double exact = j.get("exactLogZ").asDouble();
        for (String method : List.of("bar", "ti", "mbar")) {
            JsonNode e = j.get("estimates").get(method);
            Accuracy.assertLands("cli pt on the small RBM: " + method, e.get("logZ").asDouble(), e.get("stderr").asDouble(),
                    exact, 0.1, 0.1);
        }
        assertEquals(j.get("estimates").get("bar").get("logZ").asDouble(), j.get("logZ").asDouble(), 0);
        Cli.assertUserError(Cli.run("estimate", "--method", "pt", "--chains", "10"), "--ladders × --levels");
        Cli.assertUserError(Cli.run("estimate", "--method", "pt", "--ladders", "3"), "4 to 10000 ladders");
        Cli.assertUserError(Cli.run("estimate", "--method", "pt", "--steps", "10"), "--steps does not apply to --method pt");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--ladders", "4"), "--ladders does not apply to --method rts");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--method", "pt"), "not tempered sampling");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim8", "--method", "pt"), "does not run on latent-variable");
    }

    /** Reverse chains from training examples or from the forward run's end states, and the refusals around them. */
    @Test
    void reverseStartsFromDataAndFromTheForwardRun() throws IOException {
        JsonNode data = ok("estimate", "--method", "bar", "--data", "digits", "--reverse-start", "data:20", "--chains", "200",
                "--steps", "200", "--json");
        assertEquals("data:20", data.get("start").asText());
        assertTrue(Math.abs(data.get("error").asDouble()) < Math.max(4 * data.get("stderr").asDouble(), 0.1), data.toString());
        JsonNode forward = ok("estimate", "--method", "raise", "--reverse-start", "forward", "--chains", "200", "--steps",
                "200", "--json");
        assertEquals("forward:100", forward.get("start").asText());
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--reverse-start", "data"), "add --data");
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--data", "mnist", "--reverse-start", "data"),
                "784 units per example");
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--reverse-start", "forward:x"), "integer");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--method", "bar", "--reverse-start", "data"),
                "ground, ground:B, forward[:G] or gibbs:B");
        JsonNode trace = data.get("trace").get("forward");
        assertTrue(trace.get(trace.size() - 1).has("energy"), "the traces carry the chains' mean energies");
    }

    /**
     * {@code --tolerance}: two estimators agree within it and land within it of the exact answer; a time limit that
     * stops the run first says so (exit 3 under --strict) and still prints what it has; the options it chooses itself
     * are refused.
     */
    @Test
    void aToleranceIsMetByTwoEstimatorsThatAgreeOrTheRunSaysItWasNot() throws IOException {
        JsonNode j = ok("estimate", "--model", "ising:L=6", "--tolerance", "0.1", "--json");
        assertTrue(j.get("reached").asBoolean(), j.toString());
        assertEquals("consensus", j.get("method").asText());
        assertEquals(List.of("pt", "bar"), List.of(j.get("estimators").get(0).get("method").asText(),
                j.get("estimators").get(1).get("method").asText()));
        for (JsonNode e : j.get("estimators")) {
            assertTrue(e.get("stderr").asDouble() < 0.05 && e.get("warnings").isEmpty(), e.toString());
        }
        assertTrue(Math.abs(j.get("error").asDouble()) < 0.1, j.toString());
        Cli.Outcome cut = Cli.run("estimate", "--tolerance", "0.001", "--time-limit", "1s", "--strict");
        assertEquals(3, cut.code(), cut.err());
        assertTrue(cut.out().contains("not reached") && cut.err().contains("[tolerance-not-reached]"), cut.err());
        Cli.assertUserError(Cli.run("estimate", "--tolerance", "0.1", "--method", "ais"), "--method does not apply with --tolerance");
        Cli.assertUserError(Cli.run("estimate", "--tolerance", "0.1", "--chains", "10"), "--chains does not apply with --tolerance");
        Cli.assertUserError(Cli.run("estimate", "--tolerance", "-1"), "positive number of nats");
        Cli.assertUserError(Cli.run("estimate", "--tolerance", "0.1", "--time-limit", "soon"), "15m");
        Cli.assertUserError(Cli.run("estimate", "--time-limit", "5m"), "add --tolerance");
    }

    /** The work files of a bar run, fed to {@code logz bar}, give the same log ratio. */
    @Test
    void workMethodsWriteWorkThatTheBarCommandReads() throws IOException {
        Path forward = dir.resolve("wf.txt");
        Path reverse = dir.resolve("wr.txt");
        JsonNode j = ok("estimate", "--method", "bar", "--chains", "200", "--reverse-chains", "150", "--steps", "200",
                "--work", forward.toString(), "--reverse-work", reverse.toString(), "--json");
        assertEquals(200, Files.readAllLines(forward).size());
        assertEquals(150, Files.readAllLines(reverse).size());
        for (String name : List.of("lower-bound", "upper-bound", "jarzynski-forward", "jarzynski-reverse", "cumulant-forward",
                "cumulant-reverse", "cumulant", "bar", "histogram")) {
            assertTrue(j.get("estimates").has(name), "missing " + name);
        }
        double lower = j.get("estimates").get("lower-bound").get("logZ").asDouble();
        double upper = j.get("estimates").get("upper-bound").get("logZ").asDouble();
        assertTrue(lower < j.get("exactLogZ").asDouble() && j.get("exactLogZ").asDouble() < upper, j.toString());
        JsonNode bar = ok("bar", "--forward", forward.toString(), "--reverse", reverse.toString());
        assertEquals(j.get("logZ").asDouble() - j.get("logZ0").asDouble(), bar.get("logRatio").asDouble(), 1e-9);
        assertEquals(j.get("stderr").asDouble(), bar.get("stderr").asDouble(), 1e-9);
        JsonNode cumulant = ok("estimate", "--method", "cumulant", "--chains", "100", "--steps", "100", "--json");
        assertEquals(cumulant.get("estimates").get("cumulant").get("logZ").asDouble(), cumulant.get("logZ").asDouble(), 0);
    }

    @Test
    void isingAndGaussianToyModelsCarryTheirExactLogZ() throws IOException {
        JsonNode ising = ok("estimate", "--model", "ising:L=4", "--method", "histogram", "--chains", "200", "--steps", "200",
                "--json");
        assertEquals("ising:L=4", ising.get("model").asText());
        assertEquals("ground", ising.get("start").asText());
        assertTrue(Math.abs(ising.get("error").asDouble()) < 0.2, ising.toString());
        JsonNode toy = ok("estimate", "--model", "gauss-toy", "--method", "bar", "--chains", "100", "--steps", "20",
                "--schedule", "equal-divergence", "--json");
        assertEquals(0.5 * Math.log(2 * Math.PI), toy.get("exactLogZ").asDouble(), 1e-12);
        assertEquals("equal-divergence", toy.get("schedule").asText());
        assertLagIsTheChains(ok("estimate", "--model", "gauss-toy", "--method", "ais", "--chains", "4000", "--steps", "50",
                "--json", "--plot", dir.resolve("lag.png").toString()), 50);
        assertTrue(Files.size(dir.resolve("lag.png")) > 0);
        assertLagIsTheChains(ok("estimate", "--model", "gauss-toy", "--method", "raise", "--chains", "4000", "--steps",
                "50", "--json"), 50);
        assertFalse(ok("estimate", "--model", "gauss-toy", "--method", "raise", "--chains", "100", "--steps", "50",
                "--reverse-start", "gibbs:10", "--json").has("lag"), "no closed form from a Gibbs start");
        assertFalse(ok("estimate", "--model", "ising:L=4", "--method", "ais", "--chains", "100", "--steps", "300",
                "--json").has("lag"), "no closed form for the Ising model");
        JsonNode rts = ok("estimate", "--model", "ising:L=4", "--method", "rts", "--levels", "30", "--sweeps", "500",
                "--json");
        Accuracy.assertLands("cli rts on ising:L=4", rts.get("logZ").asDouble(), rts.get("stderr").asDouble(),
                rts.get("exactLogZ").asDouble(), 0.1, 0.1);
        JsonNode exact = ok("exact", "--model", "ising:L=32");
        assertEquals(1339.2671, exact.get("logZ").asDouble() - 1024 * Math.log(2), 1e-4);
    }

    /**
     * {@code --method histogram-gibbs} on the toy: the posterior of log Z (Habeck Fig. 4B) lands on the closed form, its
     * interval holds its mean, the JSON carries it, {@code --plot} draws it as a third panel, and a binned density of
     * states (--bin-width) moves the ML histogram off BAR.
     */
    @Test
    void histogramGibbsGivesAPosteriorOfLogZ() throws IOException {
        Path png = dir.resolve("posterior.png");
        JsonNode j = ok("estimate", "--model", "gauss-toy", "--method", "histogram-gibbs", "--chains", "300", "--steps",
                "200", "--json", "--plot", png.toString());
        JsonNode p = j.get("posterior");
        assertEquals(p.get("mean").asDouble(), j.get("logZ").asDouble(), 1e-12);
        assertEquals(p.get("sd").asDouble(), j.get("stderr").asDouble(), 1e-12);
        assertTrue(p.get("lower").asDouble() < p.get("mean").asDouble() && p.get("mean").asDouble() < p.get("upper").asDouble());
        assertEquals(2000, p.get("draws").asInt());
        Accuracy.assertLands("cli histogram-gibbs on the toy", j.get("logZ").asDouble(), j.get("stderr").asDouble(),
                j.get("exactLogZ").asDouble(), 0.1, 0.1);
        assertTrue(j.get("estimates").has("histogram-gibbs") && j.get("estimates").has("bar"), j.toString());
        assertTrue(javax.imageio.ImageIO.read(png.toFile()).getHeight() > 1000, "three panels");
        JsonNode binned = ok("estimate", "--model", "gauss-toy", "--method", "histogram", "--chains", "300", "--steps",
                "200", "--bin-width", "0.5", "--json");
        JsonNode e = binned.get("estimates");
        assertTrue(e.get("histogram").get("logZ").asDouble() != e.get("bar").get("logZ").asDouble(), e.toString());
        assertEquals(e.get("bar").get("logZ").asDouble(), e.get("histogram").get("logZ").asDouble(),
                e.get("bar").get("stderr").asDouble(), "binned at half a nat, still within BAR's error");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--method", "histogram-gibbs", "--gibbs-samples",
                "5"), "--gibbs-samples must lie in [20");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--method", "histogram-gibbs", "--chains", "100",
                "--steps", "50", "--bin-width", "10"), "needs at least 10");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--method", "bar", "--bin-width", "-1"),
                "--bin-width must be finite");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--gibbs-samples", "100"), "does not apply");
    }

    /**
     * The toy's closed-form lag (Habeck Fig. 1B): one point per step, exact at the start, and the chains' mean energy
     * in the trace is the one q_k predicts, within 4 of its standard errors, where it is measured.
     */
    private static void assertLagIsTheChains(JsonNode j, int steps) {
        JsonNode lag = j.get("lag");
        assertEquals(steps + 1, lag.size(), j.toString());
        assertEquals(0, lag.get(0).get("divergence").asDouble(), 1e-12);
        double most = 0;
        for (JsonNode q : lag) {
            most = Math.max(most, q.get("divergence").asDouble());
        }
        assertTrue(most > 0.01, "the toy's chains lag: at most " + most);
        int compared = 0;
        for (JsonNode p : j.get("trace")) {
            if (p.get("energy").isNumber()) {
                JsonNode q = lag.get(p.get("step").asInt());
                assertEquals(q.get("beta").asDouble(), p.get("beta").asDouble(), 1e-12);
                assertEquals(q.get("energy").asDouble(), p.get("energy").asDouble(), 4 * p.get("energyStdErr").asDouble(),
                        "step " + p.get("step"));
                compared++;
            }
        }
        assertTrue(compared >= 10, "energies compared: " + compared);
    }

    @Test
    void impossibleModelsAndOptionsAreOneLineErrors() throws IOException {
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=5"), "even");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising"), "ising:L=N");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=x"), "integer");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy:nu=3"), "unknown parameter 'nu'");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy:sigma0=-1"), "σ0, σ1 > 0");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--method", "rts"), "not tempered sampling");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--method", "arm"), "does not apply to ising:L=4");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--data", "mnist"), "--data applies to RBMs only");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--steps", "10"), "--steps does not apply to --method rts");
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--levels", "10"), "--levels does not apply to --method bar");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--reverse-chains", "10"), "--reverse-chains does not apply");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--levels", "1"), "--levels must be at least 2");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--batches", "1"), "at least 2 batches");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--sweeps", "0"), "at least one sweep");
        Cli.assertUserError(Cli.run("estimate", "--method", "mbar", "--mbar-samples", "0"), "--mbar-samples above 0");
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--schedule", "equal-divergence"), "gauss-toy only");
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--reverse-start", "ground"), "exact, data[:G], forward[:G] or gibbs:B");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--method", "bar", "--reverse-start", "ground:x"), "integer");
        Cli.assertUserError(Cli.run("estimate", "--method", "histogram", "--bootstraps", "1"), "at least 2 bootstrap");
        Path prior = dir.resolve("prior.txt");
        Files.writeString(prior, "1\n2\n3\n");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--prior", prior.toString()), "3 entries for 100 levels");
        Files.writeString(prior, "1\n-2\n");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--levels", "2", "--prior", prior.toString()), "must be positive");
    }

    @Test
    void badWorkFilesAreOneLineErrors() throws IOException {
        Path good = dir.resolve("good.txt");
        Files.writeString(good, "# forward work\n1.5\n2.0\n\n0.5\n");
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "1.0\nabc\n");
        Path empty = dir.resolve("empty.txt");
        Files.writeString(empty, "# nothing\n");
        Path nan = dir.resolve("nan.txt");
        Files.writeString(nan, "1.0\nNaN\n");
        Cli.assertUserError(Cli.run("bar", "--forward", dir.resolve("absent.txt").toString(), "--reverse", good.toString()),
                "no such file");
        Cli.assertUserError(Cli.run("bar", "--forward", good.toString(), "--reverse", bad.toString()), "bad.txt:2: 'abc'");
        Cli.assertUserError(Cli.run("bar", "--forward", empty.toString(), "--reverse", good.toString()), "no values");
        Cli.assertUserError(Cli.run("bar", "--forward", good.toString(), "--reverse", nan.toString()), "nan.txt:2: 'NaN' is not a decimal number");
        Cli.assertUserError(Cli.run("bar", "--forward", good.toString()), "--reverse");
        Path reverse = dir.resolve("reverse.txt");
        Files.writeString(reverse, "-1.0\n-1.5\n-0.2\n");
        JsonNode j = ok("bar", "--forward", good.toString(), "--reverse", reverse.toString());
        assertEquals(3, j.get("forward").asInt());
    }
}
