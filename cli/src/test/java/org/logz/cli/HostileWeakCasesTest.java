package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.base.UserException;
import org.logz.estimate.Replicates;
import org.logz.io.NpyArray;
import org.logz.io.Npz;

/** Weak cases of the hostile review at 5211905 (issue 37): one form for numbers, and messages that name the cause. */
class HostileWeakCasesTest {
    @TempDir
    Path dir;

    /** in_d87f16: integers in another script's digits ran (--chains ٣٠ was 30 chains); decimals already refused them. */
    @Test
    void integersTakeAsciiDigitsOnly() {
        Cli.assertUserError(Cli.run("estimate", "--chains", "٣٠", "--steps", "١٠"), "'٣٠' is not an int");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=٨"), "ising");
        Cli.assertUserError(Cli.run("estimate", "--seed", "٣"), "'٣' is not a long");
        Cli.assertUserError(Cli.run("estimate", "--method", "raise", "--reverse-start", "gibbs:١٠"), "must be an integer");
    }

    /**
     * mem06_aisel_inner: an --inner out of range was refused only after the GLMM's quadrature (7-13 s); now with the
     * option checks ({@code Estimation.check}), and auto:V takes a decimal V only.
     */
    @Test
    void aiselOptionsAreCheckedBeforeTheExactEvidence() {
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim20", "--method", "aisel", "--inner", "2000000000"),
                "--inner N must be between 1 and 1048576");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim20", "--method", "aisel", "--inner", "auto:0x1p-3"),
                "--inner must be a number of draws N, auto or auto:V");
    }

    /** p17_levels_huge: the refusal spoke of "a schedule of 1999999999 steps" for --levels 2000000000. */
    @Test
    void aLadderTooLongNamesLevels() {
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--chains", "2", "--levels", "2000000000", "--sweeps",
                "10"), "--levels 2000000000: a schedule of 1999999999 steps needs");
    }

    /** sv07_exact: the stochastic-volatility model was told it needed GLMM covariates. */
    @Test
    void exactOnAModelWithoutOneSaysWhyForThatModel() {
        Cli.Outcome sv = Cli.run("exact", "--model", "sv:sim200");
        Cli.assertUserError(sv, "its likelihood has no closed form to integrate");
        assertFalse(sv.err().contains("GLMM"), sv.err());
    }

    /** J52: an empty list of replicates was blamed on degenerate weights. */
    @Test
    void noReplicatesIsToldAsSuch() {
        UserException e = assertThrows(UserException.class, () -> Replicates.of(List.of()));
        assertTrue(e.getMessage().equals("replicates need at least one run, got none"), e.getMessage());
    }

    /**
     * gp30_cumulant: an estimate far above a hard upper bound (a classifier's evidence is a probability) was printed
     * with a warning and exit 0, while one below a visited state exits 1; now both are refused, nothing on stdout.
     */
    @Test
    void impossiblyHighIsRefusedAsImpossiblyLowIs() {
        Random random = new Random(5);
        int n = 30;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 3 * random.nextDouble();
            y[i] = random.nextBoolean() ? 1 : 0;
        }
        Path file = dir.resolve("sharp30.npz");
        Npz.write(file, List.of(NpyArray.ofDoubles("X", new int[] {n, 1}, x), NpyArray.ofDoubles("y", new int[] {n}, y),
                NpyArray.ofDoubles("log_ell", new int[] {}, new double[] {-1}),
                NpyArray.ofDoubles("log_sigma", new int[] {}, new double[] {6})));
        Cli.Outcome o = Cli.run("estimate", "--model", "gpc:" + file, "--method", "cumulant", "--start", "prior",
                "--chains", "100", "--steps", "20", "--json");
        assertEquals(1, o.code(), o.err());
        assertTrue(o.out().isEmpty(), o.out());
        assertTrue(o.err().contains("lies above 0.0000 by more than three standard errors, and log Z cannot exceed it"),
                o.err());
    }

    /**
     * gp30_bar, for {@code logz bar}: its files' forward and reverse Jarzynski estimates two nats apart raised nothing;
     * now {@code estimators-disagree}, and every listed estimate is held to the bounds.
     */
    @Test
    void barHoldsTheDirectionsToEachOther() throws IOException {
        Random random = new Random(3);
        Path forward = dir.resolve("f.txt");
        Path reverse = dir.resolve("r.txt");
        StringBuilder f = new StringBuilder();
        StringBuilder r = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            f.append(8 + 2 * random.nextGaussian()).append('\n');
            r.append(-2 + 2 * random.nextGaussian()).append('\n');
        }
        Files.writeString(forward, f);
        Files.writeString(reverse, r);
        Cli.Outcome o = Cli.run("bar", "--forward", forward.toString(), "--reverse", reverse.toString());
        assertEquals(0, o.code(), o.err());
        JsonNode warnings = o.json().get("warnings");
        assertEquals(1, warnings.size(), o.out());
        assertEquals("estimators-disagree", warnings.get(0).get("code").asText(), o.out());
        assertTrue(o.err().contains("the forward and reverse work disagree"), o.err());
        assertFalse(o.err().contains("anneal"), "logz bar did not anneal the files' simulations: " + o.err());
    }

    /**
     * r03_chains_big5000: 10^6 chains of a 5000×5000 RBM were refused only after 116 s of the default base rate's
     * mode search and Gibbs run; the chains' states are now counted before the base rate, whose source the refusal
     * therefore does not name, for the annealing methods, rts and pt alike. A 3000×3000 model's states take 48 kB a
     * chain, so each run below asks for more than 200 GiB.
     */
    @Test
    void chainsThatCannotFitAreRefusedBeforeTheBaseRate() {
        int n = 3000;
        Random random = new Random(1);
        float[] w = new float[n * n];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (0.001 * random.nextGaussian());
        }
        Path file = dir.resolve("wide.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {n, n}, w), NpyArray.ofFloats("a", new int[] {n},
                new float[n]), NpyArray.ofFloats("b", new int[] {n}, new float[n])));
        for (List<String> run : List.of(List.of("ais", "--chains", "100000000", "--steps", "2"),
                List.of("rts", "--chains", "10000000"), List.of("pt", "--ladders", "10000", "--levels", "460"))) {
            List<String> args = new ArrayList<>(List.of("estimate", "--model", file.toString(), "--method"));
            args.addAll(run);
            Cli.Outcome o = Cli.run(args.toArray(String[]::new));
            long chains = run.get(0).equals("pt") ? 10_000L * 460 : Long.parseLong(run.get(2));
            Cli.assertUserError(o, run.get(0) + " with " + chains + " chains on " + file + " needs ");
            assertFalse(o.err().contains("base rate"), o.err());
        }
    }
}
