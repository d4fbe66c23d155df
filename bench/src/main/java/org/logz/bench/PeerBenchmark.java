package org.logz.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmFiles;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * logz's Gibbs sweep next to its peers on the same RBM, chains and threads, in one run: scikit-learn's
 * {@code BernoulliRBM.gibbs} in float32 and float64 (its default), a PyTorch sweep, and NumPy's GEMM
 * pair of the same shapes, timed by {@code peers.py} in a python3 subprocess. A peer whose package is
 * missing is reported with what to install instead of a time.
 */
public final class PeerBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param runs   whether logz's sweep benchmark times whole RTS and AIS runs too ({@link SweepBenchmark.Runs})
     * @param python the interpreter (Debian's /usr/bin/python3 by default: another python3 may come first
     *               on PATH without the Debian packages)
     */
    public record Settings(int chains, int sweeps, int repeats, int threads, boolean runs, String python) {
        public Settings {
            if (chains < 1 || sweeps < 1 || repeats < 1 || threads < 1) {
                throw new UserException("chains, sweeps, repeats and threads must be positive");
            }
        }

        /** Debian's interpreter when present, else python3 from PATH. */
        public static String defaultPython() {
            return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
        }
    }

    /**
     * One peer: its median seconds per sweep and logz's speedup over it (its time over logz's sweep), or
     * why it did not run.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Peer(String name, String version, Double sweepSeconds, Double chainSweepsPerSecond, Double logzSpeedup,
                       String missing) {
    }

    public record Result(String python, SweepBenchmark.Result logz, double logzChainSweepsPerSecond, List<Peer> peers) {
    }

    private PeerBenchmark() {
    }

    public static Result run(ParticleBackend backend, Rbm rbm, Settings s) {
        SweepBenchmark.Result logz = SweepBenchmark.run(backend, rbm, BaseRate.uniform(rbm.visible()),
                new SweepBenchmark.Settings(s.chains(), s.sweeps(), s.repeats(), s.threads(), s.runs()));
        List<Peer> peers = new ArrayList<>();
        Path dir = null;
        try {
            dir = Files.createTempDirectory("logz-peers");
            Path model = dir.resolve("model.npz");
            RbmFiles.write(model, rbm, Optional.empty());
            Path script = dir.resolve("peers.py");
            try (InputStream in = PeerBenchmark.class.getResourceAsStream("peers.py")) {
                Files.copy(in, script);
            }
            for (String line : python(s, script, model).lines().toList()) {
                JsonNode row = JSON.readTree(line);
                String name = row.get("peer").asText();
                if (row.has("missing")) {
                    peers.add(new Peer(name, null, null, null, null, row.get("missing").asText()));
                } else {
                    double seconds = row.get("sweep_seconds").asDouble();
                    peers.add(new Peer(name, row.get("version").asText(), seconds, s.chains() / seconds,
                            seconds / logz.sweepSeconds(), null));
                }
            }
        } catch (IOException e) {
            throw new UserException("bench peers: " + e.getMessage());
        } finally {
            deleteQuietly(dir);
        }
        return new Result(s.python(), logz, s.chains() / logz.sweepSeconds(), peers);
    }

    /** Runs peers.py; a missing interpreter or a failed script is a missing-peer row, not a crash. */
    private static String python(Settings s, Path script, Path model) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(s.python(), script.toString(), model.toString(), Integer.toString(s.chains()),
                    Integer.toString(s.sweeps()), Integer.toString(s.repeats()), Integer.toString(s.threads()))
                    .redirectErrorStream(false).start();
        } catch (IOException e) {
            return missingAll(s.python() + " could not be started (" + e.getMessage() + "); install python3 with "
                    + "python3-numpy, python3-sklearn and python3-torch, or name an interpreter with --python");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return missingAll("peers.py did not finish in 30 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return missingAll("interrupted");
        }
        if (p.exitValue() != 0) {
            String last = err.strip().lines().reduce((x, y) -> y).orElse("no message");
            return out + missingAll(s.python() + " peers.py failed (" + last + (last.contains("numpy")
                    ? "; Debian: apt-get install python3-numpy" : "") + ")");
        }
        return out;
    }

    private static String missingAll(String why) {
        try {
            return JSON.writeValueAsString(JSON.createObjectNode().put("peer", "python peers").put("missing", why)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            dir.toFile().deleteOnExit();
        }
    }
}
