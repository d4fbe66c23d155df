package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.estimate.work.Bar;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.toy.GaussianToy;

/**
 * Issue 8 on the command line: inputs that would give a wrong or meaningless answer are refused with
 * one line, runs that would not fit are refused before they allocate, outputs never destroy inputs,
 * and warnings reach stderr, the JSON and the exit code under {@code --strict}.
 */
class TrustTest {
    /** Exact log Z of the scikit-learn 64×16 digits fixture. */
    private static final double DIGITS_64X16_LOG_Z = 58.79201964364602;

    @TempDir
    Path dir;

    /** {@code logz} alone is a usage error, not a help page with exit 0. */
    @Test
    void noCommandIsAOneLineUsageError() {
        Cli.Outcome o = Cli.run();
        Cli.assertUserError(o, "a command is missing");
        assertTrue(o.out().isEmpty(), o.out());
    }

    /** An empty or blank --model is refused instead of being read as a file named "". */
    @Test
    void anEmptyModelIsAUserError() {
        Cli.assertUserError(Cli.run("estimate", "--model", ""), "--model is empty");
        Cli.assertUserError(Cli.run("estimate", "--model", "   "), "--model is empty");
        Cli.assertUserError(Cli.run("exact", "--model", ""), "--model is empty");
    }

    /** The Gaussian toy's kernel power is an integer in range, not a float rounded down or an overflow. */
    @Test
    void gaussToyPowerMustBeAnIntegerInRange() {
        String range = "must be an integer from 1 to " + GaussianToy.MAX_POWER;
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy:power=2.7"), range);
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy:power=1e10"), range);
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy:power=0"), range);
    }

    /** A file with both native and scikit-learn arrays is read only when the two describe one model. */
    @Test
    void rbmFilesWhoseNativeAndSklearnArraysDisagreeAreRefused() throws IOException {
        float[] w = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
        float[] a = {0.1f, -0.1f, 0.2f};
        float[] b = {0.3f, -0.3f};
        Path agree = writeBothConventions("agree.npz", w, a, b, new float[] {0.1f, 0.3f, 0.5f, 0.2f, 0.4f, 0.6f}, a);
        Cli.Outcome ok = Cli.run("exact", "--model", agree.toString());
        assertEquals(0, ok.code(), ok.err());
        Path weights = writeBothConventions("weights.npz", w, a, b, new float[] {0.1f, 0.3f, 0.5f, 0.2f, 0.4f, 0.7f}, a);
        Cli.assertUserError(Cli.run("exact", "--model", weights.toString()), "disagree (W and components_ᵀ differ)");
        Path biases = writeBothConventions("biases.npz", w, a, b, new float[] {0.1f, 0.3f, 0.5f, 0.2f, 0.4f, 0.6f},
                new float[] {0.1f, -0.1f, 0.25f});
        Cli.assertUserError(Cli.run("estimate", "--model", biases.toString()), "disagree (a and intercept_visible_ differ)");
    }

    /** Parameters whose pre-activations float32 cannot hold to 0.001 are refused when the file is read. */
    @Test
    void parametersBeyondFloat32PrecisionAreRefusedAtLoad() throws IOException {
        Path a0 = dir.resolve("a0.npz");
        Npz.write(a0, List.of(NpyArray.ofFloats("W", new int[] {2, 2}, new float[] {0.1f, 0.2f, 0.3f, 0.4f}),
                NpyArray.ofFloats("a", new int[] {2}, new float[2]), NpyArray.ofFloats("b", new int[] {2}, new float[2]),
                NpyArray.ofFloats("a0", new int[] {2}, new float[] {1e5f, 0f})));
        Cli.assertUserError(Cli.run("estimate", "--model", a0.toString(), "--chains", "20", "--steps", "20"),
                "a0[0] = 100000.0 is beyond ±" + (int) Rbm.MAX_PREACTIVATION);
        Path weights = dir.resolve("w.npz");
        Npz.write(weights, List.of(NpyArray.ofFloats("W", new int[] {2, 2}, new float[] {2e4f, 0f, 0f, 0f}),
                NpyArray.ofFloats("a", new int[] {2}, new float[2]), NpyArray.ofFloats("b", new int[] {2}, new float[2])));
        Cli.Outcome o = Cli.run("estimate", "--model", weights.toString(), "--chains", "20", "--steps", "20");
        Cli.assertUserError(o, "pre-activation can reach");
        assertTrue(o.err().contains(String.valueOf((int) Rbm.MAX_PREACTIVATION)), o.err());
    }

    /** Work files take NumPy's decimal numbers only, not what Java's parser alone accepts. */
    @Test
    void workFilesInJavaOnlyNumberSyntaxAreRefused() throws IOException {
        Path reverse = values("reverse.txt", "-1.0", "-2.0");
        for (String javaOnly : List.of("0x1p3", "1.0d", "2f")) {
            Path forward = values("forward.txt", "1.0", javaOnly);
            Cli.assertUserError(Cli.run("bar", "--forward", forward.toString(), "--reverse", reverse.toString()),
                    "forward.txt:2: '" + javaOnly + "' is not a decimal number");
        }
    }

    /** Forward and reverse work that do not overlap at all fail the run (exit 1) instead of printing a guess. */
    @Test
    void disjointWorkFailsTheRunWithOneLine() throws IOException {
        Path forward = values("forward.txt", "100", "100.5", "101");
        Path reverse = values("reverse.txt", "-1000000", "-999999.5", "-999999");
        Cli.Outcome o = Cli.run("bar", "--forward", forward.toString(), "--reverse", reverse.toString());
        assertEquals(1, o.code(), "exit code; stderr: " + o.err());
        assertEquals(1, o.err().strip().lines().count(), "one line on stderr: " + o.err());
        assertTrue(o.err().startsWith("logz: ") && o.err().contains("do not overlap"), o.err());
        assertFalse(o.err().contains("\tat "), "no stack trace");
        assertTrue(o.out().isEmpty(), o.out());
    }

    /** Work values too large for the estimators' moments are refused rather than reported as Infinity. */
    @Test
    void workTooLargeForTheEstimatorsIsAUserError() throws IOException {
        Path forward = values("forward.txt", "1e300", "1.5e300");
        Path reverse = values("reverse.txt", "-1e300", "-1.5e300");
        Cli.Outcome o = Cli.run("bar", "--forward", forward.toString(), "--reverse", reverse.toString());
        Cli.assertUserError(o, "work values must be finite and at most " + Bar.MAX_WORK);
        assertFalse(o.out().contains("Infinity"), o.out());
    }

    /** Barely overlapping work prints its result with a poor-overlap warning, and --strict makes that exit 3. */
    @Test
    void poorlyOverlappingWorkWarnsAndFailsUnderStrict() throws IOException {
        Path forward = values("forward.txt", "10", "10.5", "11", "11.5", "12", "0.5");
        Path reverse = values("reverse.txt", "0", "0.5", "1", "1.5", "2", "-11");
        Cli.Outcome o = Cli.run("bar", "--forward", forward.toString(), "--reverse", reverse.toString());
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertTrue(j.get("overlap").asDouble() < Bar.MIN_OVERLAP, j.toString());
        assertTrue(codes(j).contains("poor-overlap"), j.toString());
        assertTrue(o.err().contains("logz: warning [poor-overlap]: "), o.err());
        Cli.Outcome strict = Cli.run("bar", "--forward", forward.toString(), "--reverse", reverse.toString(), "--strict");
        assertEquals(WarningReport.STRICT_EXIT, strict.code(), strict.err());
        assertTrue(codes(strict.json()).contains("poor-overlap"), strict.out());
    }

    /** An estimate with a low ESS warns on stderr and in the JSON, exits 0, and exits 3 under --strict. */
    @Test
    void strictTurnsAnEstimateWarningIntoExitThree() throws IOException {
        String[] args = {"estimate", "--model", "gauss-toy", "--chains", "200", "--steps", "1", "--json"};
        Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.code(), o.err());
        assertTrue(codes(o.json()).contains("low-ess"), o.out());
        assertTrue(o.err().contains("logz: warning [low-ess]: "), o.err());
        List<String> strictArgs = new ArrayList<>(List.of(args));
        strictArgs.add("--strict");
        Cli.Outcome strict = Cli.run(strictArgs.toArray(String[]::new));
        assertEquals(WarningReport.STRICT_EXIT, strict.code(), strict.err());
        assertFalse(codes(strict.json()).isEmpty(), strict.out());
        Cli.Outcome quiet = Cli.run("estimate", "--model", "gauss-toy", "--chains", "20", "--steps", "20", "--json",
                "--strict", "--schedule", "equal-divergence");
        assertEquals(codes(quiet.json()).isEmpty() ? 0 : WarningReport.STRICT_EXIT, quiet.code(), quiet.err());
    }

    /** Chains that cannot fit are refused up front with what they need, not by an OutOfMemoryError mid-run. */
    @Test
    void chainsThatCannotFitAreRefusedWithTheMemoryNeeded() {
        assertNeedsMemory(Cli.run("estimate", "--model", "ising:L=4", "--chains", "1000000000", "--steps", "2"));
    }

    /** Schedules, ladders and bootstrap sets too long for the heap are refused before they are allocated. */
    @Test
    void hugeSchedulesLaddersAndBootstrapsAreRefused() {
        assertNeedsMemory(Cli.run("estimate", "--model", "ising:L=4", "--chains", "20", "--steps", "2000000000"));
        assertNeedsMemory(Cli.run("estimate", "--model", "ising:L=4", "--method", "rts", "--chains", "20",
                "--levels", "2000000000"));
        assertNeedsMemory(Cli.run("estimate", "--model", "ising:L=4", "--chains", "20", "--schedule",
                "piecewise:1/2000000000"));
        assertNeedsMemory(Cli.run("estimate", "--model", "ising:L=4", "--method", "histogram", "--chains", "20",
                "--steps", "2", "--bootstraps", "2000000000"));
    }

    /** Training a model whose weights no array can hold is a user error. */
    @Test
    void trainingAModelTooLargeIsRefused() throws IOException {
        Path data = dir.resolve("d.npz");
        float[] x = new float[20 * 6];
        for (int k = 0; k < x.length; k++) {
            x[k] = k % 3 == 0 ? 1f : 0f;
        }
        Npz.write(data, List.of(NpyArray.ofFloats("X", new int[] {20, 6}, x)));
        Path out = dir.resolve("t.npz");
        Cli.assertUserError(Cli.run("train", "--data", data.toString(), "--hidden", "2000000000", "--out", out.toString()),
                "2000000000");
        assertFalse(Files.exists(out));
    }

    /** An absurd --replicates is refused up front instead of running for ever. */
    @Test
    void absurdReplicatesAreRefusedBeforeRunning() {
        Cli.Outcome o = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            return Cli.run("estimate", "--model", "gauss-toy", "--chains", "2", "--steps", "100000", "--replicates",
                    "2000000000");
        });
        Cli.assertUserError(o, "--replicates must be between 1 and " + org.logz.api.Estimation.MAX_REPLICATES);
    }

    /** --work naming the model file is refused and the model survives. */
    @Test
    void workMayNotOverwriteTheModel() throws IOException {
        Path model = smallModel();
        byte[] before = Files.readAllBytes(model);
        Cli.assertUserError(Cli.run("estimate", "--model", model.toString(), "--chains", "20", "--steps", "20", "--work",
                model.toString()), "is the file --model reads");
        assertArrayEquals(before, Files.readAllBytes(model));
    }

    /** --work and --reverse-work naming one file, however spelled, are refused. */
    @Test
    void workAndReverseWorkMustBeDifferentFiles() {
        Path work = dir.resolve("w.txt");
        Path alias = dir.resolve(".").resolve("w.txt");
        for (Path reverse : List.of(work, alias)) {
            Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--method", "bar", "--chains", "20", "--steps",
                    "20", "--work", work.toString(), "--reverse-work", reverse.toString()), "name the same file");
        }
        assertFalse(Files.exists(work));
    }

    /** Writing --work through a symbolic link replaces the link's target and keeps the link. */
    @Test
    void workIsWrittenThroughASymbolicLink() throws IOException {
        Path target = dir.resolve("target.txt");
        Files.writeString(target, "old\n");
        Path link = dir.resolve("link.txt");
        try {
            Files.createSymbolicLink(link, target);
        } catch (IOException | UnsupportedOperationException e) {
            Assumptions.abort("symbolic links are not supported here: " + e);
        }
        Cli.Outcome o = Cli.run("estimate", "--model", "gauss-toy", "--chains", "20", "--steps", "20", "--work",
                link.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertEquals(20, Files.readAllLines(target).size());
    }

    /** A write-protected work file is not replaced. */
    @Test
    void aWriteProtectedWorkFileIsNotReplaced() throws IOException {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root writes through any permission");
        Path work = dir.resolve("w.txt");
        Files.writeString(work, "keep\n");
        Assumptions.assumeTrue(work.toFile().setWritable(false, false) && !Files.isWritable(work),
                "cannot write-protect files here");
        Cli.assertUserError(Cli.run("estimate", "--model", "gauss-toy", "--chains", "20", "--steps", "20", "--work",
                work.toString()), "is write-protected");
        assertEquals("keep\n", Files.readString(work));
    }

    /** {@code logz exact} on a small RBM prints one JSON object and nothing else on stdout or stderr. */
    @Test
    void exactOnASmallRbmPrintsOnlyJson() throws IOException {
        Rbm rbm = RandomRbm.create(10, 6, 1.0, 3);
        Path model = dir.resolve("m.npz");
        RbmFiles.write(model, rbm, Optional.empty());
        Cli.Outcome o = Cli.run("exact", "--model", model.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.err().isEmpty(), o.err());
        assertTrue(o.out().startsWith("{") && o.out().strip().endsWith("}"), o.out());
        assertEquals(RbmEnumeration.logZ(rbm), o.json().get("logZ").asDouble(), 1e-9);
    }

    /** An RBM file without a0 gets the model base rate by default, says so, and lands within a nat. */
    @Test
    void sklearnModelsGetTheModelBaseRateByDefault() throws IOException {
        Path model = sklearnFixture("sklearn-digits-64x16.npz");
        Cli.Outcome o = Cli.run("estimate", "--model", model.toString(), "--chains", "100", "--steps", "200", "--json",
                "--compare-exact");
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertTrue(j.get("baseRate").asText().startsWith("model"), j.get("baseRate").toString());
        assertEquals(DIGITS_64X16_LOG_Z, j.get("exactLogZ").asDouble(), 1e-4);
        assertEquals(DIGITS_64X16_LOG_Z, j.get("logZ").asDouble(), 1.0, "within a nat of exact");
    }

    private static void assertNeedsMemory(Cli.Outcome o) {
        Cli.assertUserError(o, " needs ");
        assertTrue(o.err().contains("GiB"), o.err());
    }

    private static List<String> codes(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode w : report.get("warnings")) {
            assertTrue(w.hasNonNull("message"), w.toString());
            out.add(w.get("code").asText());
        }
        return out;
    }

    private Path values(String name, String... lines) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    private Path smallModel() throws IOException {
        Path model = dir.resolve("m.npz");
        RbmFiles.write(model, RandomRbm.create(10, 6, 1.0, 3), Optional.empty());
        return model;
    }

    /** A 3×2 RBM stored under both names: W, a, b and components_ (H×N), intercept_visible_, intercept_hidden_. */
    private Path writeBothConventions(String name, float[] w, float[] a, float[] b, float[] components, float[] interceptVisible)
            throws IOException {
        Path file = dir.resolve(name);
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {3, 2}, w), NpyArray.ofFloats("a", new int[] {3}, a),
                NpyArray.ofFloats("b", new int[] {2}, b), NpyArray.ofFloats("components_", new int[] {2, 3}, components),
                NpyArray.ofFloats("intercept_visible_", new int[] {3}, interceptVisible),
                NpyArray.ofFloats("intercept_hidden_", new int[] {2}, b)));
        return file;
    }

    /** A scikit-learn fixture of engine-api's tests, from the cli module (Maven's working directory) or the repository root. */
    static Path sklearnFixture(String name) {
        for (String module : List.of("../engine-api", "engine-api")) {
            Path p = Path.of(module, "src", "test", "resources", "org", "logz", "fixtures", "sklearn", name);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new AssertionError("fixture " + name + " not found under engine-api/src/test/resources");
    }
}
