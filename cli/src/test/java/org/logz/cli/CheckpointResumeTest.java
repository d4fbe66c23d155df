package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.logz.estimate.checkpoint.AnnealingState;
import org.logz.estimate.checkpoint.CheckpointFiles;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmFiles;
import org.logz.testkit.Emulator;

/**
 * A run killed with SIGKILL after it has saved a checkpoint, resumed with {@code --resume}, gives the bits of the
 * uninterrupted run; a checkpoint of another run, or a damaged one, is refused with the reason.
 */
@Isolated // kills a run at a moment it times
class CheckpointResumeTest {
    /**
     * Tempered sampling saves after its stages and after stretches of its final run: 40 stretches of 200 sweeps here
     * (of 50 the run ended within 0.6 s on a fast core, before its second save).
     * The forward and reverse runs are killed in their forward pass (bar) and, with 10 forward chains, in their reverse
     * pass (histogram); the adaptive SMC sampler after a step, lineages and all.
     */
    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"ais, cpu, --chains 200 --steps 20000", "raise, cpu, --chains 200 --steps 20000",
        "ais, cuda-emulated, --chains 64 --steps 3000",
        "rts, cpu, --chains 200 --levels 40 --sweeps 8000 --batches 40 --mbar-samples 3000",
        "bar, cpu, --chains 200 --steps 20000", "histogram, cpu, --chains 10 --reverse-chains 400 --steps 20000",
        "smc, cpu, --particles 12000"})
    void aRunKilledMidWayAndResumedGivesTheUninterruptedBits(String method, String backend, String options,
                                                            @TempDir Path dir) throws Exception {
        if (backend.equals("cuda-emulated")) {
            Emulator.require();
        }
        List<String> run = new ArrayList<>(List.of("estimate", "--json", "--method", method, "--backend", backend,
                "--seed", "4", "--threads", "1"));
        run.addAll(List.of(options.split(" ")));
        Path checkpoint = dir.resolve("run.ckpt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(run);
        command.addAll(List.of("--checkpoint", checkpoint.toString(), "--checkpoint-every", "0.3"));
        Process killed = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("log").toFile())
                .start();
        try {
            // the second save proves the run is under way past its start (for the histogram, a save in its reverse
            // pass, however fast the forward pass went: the Java path's is slower); then SIGKILL, no shutdown hooks
            FileTime first = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline && killed.isAlive()) {
                if (Files.exists(checkpoint)) {
                    FileTime t = Files.getLastModifiedTime(checkpoint);
                    if (first == null) {
                        first = t;
                    } else if (!t.equals(first) && (!method.equals("histogram")
                            || CheckpointFiles.readBidirectional(checkpoint).reverse().isPresent())) {
                        break;
                    }
                }
                Thread.sleep(20);
            }
            assertTrue(killed.isAlive(), "the run ended before it could be killed: " + Files.readString(dir.resolve("log")));
        } finally {
            killed.destroyForcibly().waitFor();
        }
        assertTrue(Files.exists(checkpoint), Files.readString(dir.resolve("log")));
        if (method.equals("bar") || method.equals("histogram")) {
            assertEquals(method.equals("histogram"), CheckpointFiles.readBidirectional(checkpoint).reverse().isPresent(),
                    "killed in the " + (method.equals("histogram") ? "reverse" : "forward") + " pass");
        }
        Cli.Outcome whole = Cli.run(run.toArray(String[]::new));
        assertEquals(0, whole.code(), whole.err());
        List<String> resume = new ArrayList<>(run);
        resume.addAll(List.of("--resume", checkpoint.toString()));
        Cli.Outcome resumed = Cli.run(resume.toArray(String[]::new));
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals(Double.doubleToLongBits(whole.json().get("logZ").asDouble()),
                Double.doubleToLongBits(resumed.json().get("logZ").asDouble()),
                whole.json().get("logZ") + " uninterrupted, " + resumed.json().get("logZ") + " resumed");
        assertEquals(whole.json().get("stderr").asDouble(), resumed.json().get("stderr").asDouble(), 0.0);
        ObjectNode a = whole.json().deepCopy();
        ObjectNode b = resumed.json().deepCopy();
        a.remove("seconds");
        b.remove("seconds");
        assertEquals(a, b, "the whole report but the seconds (trace, curves, occupancies, kept samples)");
    }

    @Test
    void aCheckpointOfAnotherRunOrADamagedOneIsRefused(@TempDir Path dir) throws Exception {
        Path checkpoint = dir.resolve("run.ckpt");
        Cli.Outcome saved = Cli.run("estimate", "--chains", "20", "--steps", "400", "--checkpoint", checkpoint.toString(),
                "--checkpoint-every", "0.000001");
        assertEquals(0, saved.code(), saved.err());
        Cli.assertUserError(Cli.run("estimate", "--chains", "30", "--steps", "400", "--resume", checkpoint.toString()),
                "the checkpoint is of another run (chains: checkpoint 20, this run 30)");
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--seed", "2", "--resume",
                checkpoint.toString()), "seed: checkpoint 1, this run 2");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=4", "--chains", "20", "--steps", "400", "--resume",
                checkpoint.toString()), "model: checkpoint");
        // the base rate the options resolve to counts, not how they name it: auto is the demo file's a0
        Cli.Outcome sameBase = Cli.run("estimate", "--chains", "20", "--steps", "400", "--base-rate", "file", "--resume",
                checkpoint.toString());
        assertEquals(0, sameBase.code(), sameBase.err());
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--work", checkpoint.toString(),
                "--resume", checkpoint.toString()), "--resume");
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--chains", "20", "--sweeps", "10", "--resume",
                checkpoint.toString()), "the checkpoint of an annealing run");
        Path tempered = dir.resolve("rts.ckpt");
        Cli.Outcome rts = Cli.run("estimate", "--method", "rts", "--chains", "20", "--levels", "8", "--sweeps", "40",
                "--checkpoint", tempered.toString(), "--checkpoint-every", "0.000001");
        assertEquals(0, rts.code(), rts.err());
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--chains", "20", "--levels", "9", "--sweeps", "40",
                "--resume", tempered.toString()), "ladder: checkpoint 8/");
        Cli.assertUserError(Cli.run("estimate", "--method", "ti", "--chains", "20", "--levels", "8", "--sweeps", "40",
                "--resume", tempered.toString()), "method: checkpoint rts, this run ti");
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--resume", tempered.toString()),
                "the checkpoint of a tempered sampling run");
        Path work = dir.resolve("bar.ckpt");
        Cli.Outcome bar = Cli.run("estimate", "--method", "bar", "--chains", "20", "--steps", "400", "--checkpoint",
                work.toString(), "--checkpoint-every", "0.000001");
        assertEquals(0, bar.code(), bar.err());
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--chains", "20", "--reverse-chains", "30", "--steps",
                "400", "--resume", work.toString()), "the reverse pass's chains: checkpoint 20, this run 30");
        Cli.assertUserError(Cli.run("estimate", "--method", "bar", "--chains", "20", "--steps", "400", "--resume",
                checkpoint.toString()), "the checkpoint of an annealing run (ais, raise) cannot resume a forward and "
                + "reverse annealing run");
        Cli.Outcome otherHeadline = Cli.run("estimate", "--method", "histogram", "--chains", "20", "--steps", "400",
                "--resume", work.toString());
        assertEquals(0, otherHeadline.code(), "bar, cumulant and histogram read the same two runs: "
                + otherHeadline.err());
        // a file with a valid checksum, written by something else than a run: a state that is not a number
        Path forged = dir.resolve("forged.ckpt");
        AnnealingState state = CheckpointFiles.readAnnealing(checkpoint);
        float[] states = state.states().clone();
        states[7] = Float.NaN;
        CheckpointFiles.write(forged, new AnnealingState(state.fingerprint(), state.nextStep(), states, state.logW(),
                state.trace(), state.transitions(), state.seconds(), state.start(), state.burnIn(), state.visitedBound()));
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--resume", forged.toString()),
                "the checkpoint is damaged (a chain's state NaN)");
        // the hostile review's ck13: the first command line again would start over and replace the saved run
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--checkpoint", checkpoint.toString()),
                "the file exists and may hold a run in progress; continue it with --resume " + checkpoint);
        // ckc_fliphead: one flipped bit in the header's format is damage, not a newer logz
        byte[] header = Files.readAllBytes(checkpoint);
        header[8] ^= 0x58;
        Path flipped = dir.resolve("flipped.ckpt");
        Files.write(flipped, header);
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--resume", flipped.toString()),
                "the checkpoint is damaged (its header names format ");
        byte[] bytes = Files.readAllBytes(checkpoint);
        bytes[bytes.length / 2] ^= 1;
        Files.write(checkpoint, bytes);
        Cli.assertUserError(Cli.run("estimate", "--chains", "20", "--steps", "400", "--resume", checkpoint.toString()),
                "damaged");
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--resume", checkpoint.toString()),
                "--resume does not apply to --method arm");
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--particles", "50", "--resume", work.toString()),
                "the checkpoint of a forward and reverse annealing run (bar, cumulant, histogram) cannot resume an SMC "
                + "sampler run");
        Path smc = dir.resolve("smc.ckpt");
        Cli.Outcome sampler = Cli.run("estimate", "--method", "smc", "--particles", "50", "--checkpoint", smc.toString(),
                "--checkpoint-every", "0.000001");
        assertEquals(0, sampler.code(), sampler.err());
        Cli.assertUserError(Cli.run("estimate", "--method", "smc", "--particles", "50", "--ess-target", "0.99",
                "--resume", smc.toString()), "steps: checkpoint adaptive:0.999/10000, this run adaptive:0.99/10000");
        Cli.assertUserError(Cli.run("estimate", "--checkpoint-every", "5"), "--checkpoint-every needs --checkpoint FILE");
    }

    @Test
    void aCheckpointIsOfTheModelsNumbersAndTheReverseStartNotOfTheirNames(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("model.npz");
        Path checkpoint = dir.resolve("run.ckpt");
        RbmFiles.write(model, rbm(1.0f), Optional.empty());
        Cli.Outcome saved = Cli.run("estimate", "--model", model.toString(), "--method", "raise", "--reverse-start",
                "gibbs:5", "--chains", "20", "--steps", "300", "--checkpoint", checkpoint.toString(), "--checkpoint-every",
                "0.000001");
        assertEquals(0, saved.code(), saved.err());
        Cli.assertUserError(Cli.run("estimate", "--model", model.toString(), "--method", "raise", "--reverse-start",
                "gibbs:6", "--chains", "20", "--steps", "300", "--resume", checkpoint.toString()),
                "start: checkpoint gibbs:5, this run gibbs:6");
        RbmFiles.write(model, rbm(1.5f), Optional.empty());
        Cli.assertUserError(Cli.run("estimate", "--model", model.toString(), "--method", "raise", "--reverse-start",
                "gibbs:5", "--chains", "20", "--steps", "300", "--resume", checkpoint.toString()), "model: checkpoint rbm");
    }

    private static Rbm rbm(float scale) {
        float[] w = new float[12 * 4];
        for (int k = 0; k < w.length; k++) {
            w[k] = scale * (float) Math.sin(k);
        }
        return new Rbm(12, 4, w, new float[12], new float[4]);
    }
}
