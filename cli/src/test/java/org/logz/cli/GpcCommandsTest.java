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
import org.logz.model.GpClassification;
import org.logz.model.gpc.GpcExact;

/** {@code --model gpc:...}: exact answers, EP, the sequential methods, and what is refused. */
class GpcCommandsTest {
    @TempDir
    Path dir;

    /** Three correlated cases (closed form) written as X, y with 0/1 labels and hyperparameters. */
    private Path threeCases() {
        Path file = dir.resolve("three.npz");
        Npz.write(file, List.of(NpyArray.ofDoubles("X", new int[] {3, 1}, new double[] {0, 0.4, 1.1}),
                NpyArray.ofDoubles("y", new int[] {3}, new double[] {1, 0, 1}),
                NpyArray.ofDoubles("log_ell", new int[] {}, new double[] {0}),
                NpyArray.ofDoubles("log_sigma", new int[] {}, new double[] {1.5})));
        return file;
    }

    private static double exactThree() {
        return GpcExact.logZ(GpClassification.squaredExponential(new double[][] {{0}, {0.4}, {1.1}}, new int[] {1, -1, 1},
                0, 1.5, "three"));
    }

    @Test
    void exactAndEstimatesAgree() throws IOException {
        String model = "gpc:" + threeCases();
        Cli.Outcome exact = Cli.run("exact", "--model", model);
        assertEquals(0, exact.code(), exact.err());
        assertEquals(exactThree(), exact.json().get("logZ").asDouble(), 1e-12);
        assertEquals(3, exact.json().get("cases").asInt());
        Cli.Outcome arm = Cli.run("estimate", "--model", model, "--method", "arm", "--particles", "500", "--replicates", "4",
                "--json");
        assertEquals(0, arm.code(), arm.err());
        JsonNode j = arm.json();
        assertEquals(exactThree(), j.get("exactLogZ").asDouble(), 1e-12);
        assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), 0.15), arm.out());
        assertEquals(1, j.get("gibbsSteps").asInt(), "the paper's GPC default of one sweep per move");
        assertEquals(0.7, j.get("gammaThreshold").asDouble(), "the paper's γ_thr (§3.2), for GP classification too");
        assertTrue(j.get("precisionDrift").asDouble() < 1e-8, arm.out());
        // Theorem 1 of the ARM paper on the run's trace: the optimum shares the run's own total, and cannot do worse
        JsonNode allocation = j.get("allocation");
        double shared = 0;
        for (JsonNode r : allocation.get("optimalParticles")) {
            shared += r.asDouble();
        }
        assertEquals(allocation.get("totalParticles").asDouble(), shared, 1e-6 * shared, allocation.toString());
        assertEquals(j.get("trace").size(), allocation.get("vHat").size());
        assertTrue(allocation.get("efficiency").asDouble() > 0 && allocation.get("efficiency").asDouble() <= 1,
                allocation.toString());
        Cli.Outcome ep = Cli.run("estimate", "--model", model, "--method", "ep", "--json");
        assertEquals(0, ep.code(), ep.err());
        assertTrue(ep.json().get("stderr").isNull());
        assertEquals(exactThree(), ep.json().get("logZ").asDouble(), 0.1);
        Cli.Outcome corrected = Cli.run("estimate", "--model", model, "--method", "ep-corrected", "--json");
        assertEquals(0, corrected.code(), corrected.err());
        JsonNode c = corrected.json();
        assertEquals("ep-corrected", c.get("method").asText());
        assertEquals(ep.json().get("logZ").asDouble(), c.get("epLogZ").asDouble(), 0);
        assertEquals(c.get("epLogZ").asDouble() + c.get("order3").asDouble() + c.get("order4").asDouble(),
                c.get("logZ").asDouble(), 1e-12);
        assertTrue(Math.abs(c.get("logZ").asDouble() - exactThree()) < Math.abs(ep.json().get("logZ").asDouble()
                - exactThree()), corrected.out());
        Cli.assertUserError(Cli.run("estimate", "--method", "ep-corrected"), "--method ep-corrected approximates");
    }

    /**
     * AIS from EP's q (the default start) and from the prior, RAISE and BAR with reverse chains started by
     * elliptical slice sampling at β = 1, and RTS, all near the closed form; the JSON names the start and
     * carries the ESS trace.
     */
    @Test
    void annealingAndTemperedMethodsFromBothStarts() throws IOException {
        String model = "gpc:" + threeCases();
        String[][] runs = {
            {"--method", "ais", "--chains", "300", "--steps", "100"},
            {"--method", "ais", "--start", "prior", "--chains", "300", "--steps", "300", "--schedule", "geometric"},
            {"--method", "raise", "--chains", "300", "--steps", "100"},
            {"--method", "bar", "--chains", "200", "--steps", "100", "--reverse-start", "gibbs:20"},
            {"--method", "rts", "--chains", "40", "--levels", "20", "--sweeps", "400"},
        };
        for (String[] run : runs) {
            JsonNode j = Cli.estimateNearExact(model, 3, 0.15, run);
            assertEquals(List.of(run).contains("prior") ? "prior" : "ep", j.get("base").asText(), j.toString());
            assertTrue(j.get("trace").size() > 0, j.toString());
        }
        Path plot = dir.resolve("ais.png");
        Cli.Outcome plotted = Cli.run("estimate", "--model", model, "--method", "ais", "--chains", "50", "--steps", "20",
                "--plot", plot.toString());
        assertEquals(0, plotted.code(), plotted.err());
        assertTrue(plotted.out().contains("start ep"), plotted.out());
        assertTrue(java.nio.file.Files.size(plot) > 1000);
    }

    @Test
    void shippedSetRunsEp() throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--model", "gpc:digits35", "--method", "ep", "--log-ell", "1", "--log-sigma", "0",
                "--json");
        assertEquals(0, o.code(), o.err());
        assertEquals(365, o.json().get("cases").asInt());
        assertTrue(o.json().get("logZ").asDouble() < 0 && o.json().get("logZ").asDouble() > 365 * Math.log(0.5) * 2, o.out());
    }

    /**
     * Found by the hostile review: EP on a zero prior variance (log ½ for one case), and runs whose
     * numbers cannot be trusted are printed with warnings (exit 3 under --strict): K + I too
     * ill-conditioned for its precision, weights collapsed onto one particle.
     */
    @Test
    void degenerateAndUntrustworthyRunsAreToldApart() throws IOException {
        Path zero = dir.resolve("zero.npz");
        Npz.write(zero, List.of(NpyArray.ofDoubles("K", new int[] {1, 1}, new double[] {0}),
                NpyArray.ofDoubles("y", new int[] {1}, new double[] {1})));
        Cli.Outcome ep = Cli.run("estimate", "--model", "gpc:" + zero, "--method", "ep", "--json");
        assertEquals(0, ep.code(), ep.err());
        assertEquals(Math.log(0.5), ep.json().get("logZ").asDouble(), 1e-12);
        Cli.Outcome ill = Cli.run("estimate", "--model", "gpc:" + threeCases(), "--method", "rm", "--particles", "30",
                "--log-ell", "15", "--log-sigma", "14.9", "--strict");
        assertEquals(3, ill.code(), ill.err());
        assertTrue(ill.err().contains("[ill-conditioned]"), ill.err());
        Cli.Outcome two = Cli.run("estimate", "--model", "gpc:digits35", "--method", "rm", "--particles", "2", "--islands", "1",
                "--ess-threshold", "0.7", "--log-ell", "1", "--log-sigma", "0", "--strict");
        assertEquals(3, two.code(), two.err());
        assertTrue(two.err().contains("[weight-collapse]"), two.err());
    }

    @Test
    void whatDoesNotApplyIsRefused() {
        String model = "gpc:" + threeCases();
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ais", "--start", "posterior"),
                "--start must be prior or ep");
        Cli.assertUserError(Cli.run("estimate", "--method", "ais", "--start", "ep"), "--start applies to GP classification");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "arm", "--start", "ep"),
                "--start does not apply to --method arm");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "raise", "--reverse-start", "exact"),
                "--reverse-start must be forward[:G] or gibbs:B");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "arm-reseed"), "GP classification has none");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ep", "--replicates", "2"), "deterministic");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ep", "--chains", "5"), "--chains does not apply");
        Cli.assertUserError(Cli.run("estimate", "--method", "ep"), "--method ep approximates the evidence of GP");
        Cli.assertUserError(Cli.run("estimate", "--log-ell", "1"), "apply to GP classification");
        Cli.assertUserError(Cli.run("estimate", "--model", "gpc:nowhere.npz", "--method", "ep"), "neither a shipped set");
        Cli.assertUserError(Cli.run("exact", "--model", "gpc:digits35"), "closed form for n ≤ 3");
        Cli.assertUserError(Cli.run("estimate", "--model", model, "--method", "ep", "--log-sigma", "NaN"), "not a finite decimal");
    }

    /**
     * gpv_dup_rm: duplicated inputs at log σ = 14 (K + I near singular) failed with "the smoothing weights of unit 11
     * are degenerate": RBM wording, the cause unnamed. Whether the run fails or prints, the conditioning is named.
     */
    @Test
    void duplicatedInputsNameTheConditioning() throws IOException {
        java.util.Random random = new java.util.Random(7);
        int n = 40;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i += 2) {
            x[i] = 3 * random.nextDouble();
            x[i + 1] = x[i];
            y[i] = random.nextBoolean() ? 1 : 0;
            y[i + 1] = y[i];
        }
        // at log σ = 11 the condition number (about 1e10) lies below the ill-conditioned warning's, and runs still fail
        for (double logSigma : new double[] {11, 14}) {
            Path file = dir.resolve("dup" + logSigma + ".npz");
            Npz.write(file, List.of(NpyArray.ofDoubles("X", new int[] {n, 1}, x),
                    NpyArray.ofDoubles("y", new int[] {n}, y), NpyArray.ofDoubles("log_ell", new int[] {}, new double[] {0}),
                    NpyArray.ofDoubles("log_sigma", new int[] {}, new double[] {logSigma})));
            Cli.Outcome o = Cli.run("estimate", "--model", "gpc:" + file, "--method", "rm", "--particles", "200",
                    "--resampling", "multinomial");
            if (o.code() == 0) {
                assertTrue(o.err().contains("warning [ill-conditioned]: K + I has a condition number"), o.err());
            } else {
                assertEquals(1, o.code(), o.err());
                assertTrue(o.err().contains("the smoothing weights of case ") && o.err().contains("condition number"),
                        o.err());
            }
        }
    }
}
