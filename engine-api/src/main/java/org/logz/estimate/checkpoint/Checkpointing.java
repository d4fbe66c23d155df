package org.logz.estimate.checkpoint;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;

/**
 * Where an annealing or tempered sampling run saves its state ({@code save}, every {@code everySeconds} of wall time, atomically) and the
 * checkpoint it resumes from ({@code resume}); either may be null.
 */
public record Checkpointing(Path save, double everySeconds, Path resume) {
    /** No checkpoints. */
    public static final Checkpointing NONE = new Checkpointing(null, 0, null);
    /** The logz version that writes and reads checkpoints (the build's). */
    static final String VERSION = version();

    /** The wall time between saves when none is given. */
    public static final double DEFAULT_EVERY_SECONDS = 60;

    public Checkpointing {
        if (save != null && !(everySeconds > 0 && everySeconds <= 1e9)) {
            throw new UserException("--checkpoint-every must be a number of seconds above 0 and at most 1e9, got " + everySeconds);
        }
    }

    /** Whether the run saves or resumes anything. */
    public boolean active() {
        return save != null || resume != null;
    }

    /**
     * What a run is, as {@code key=value} pairs joined by {@code ;}: the checkpoint format, the logz version and the
     * run's own settings and model content. A checkpoint whose fingerprint differs belongs to another run.
     */
    public String fingerprint(Map<String, String> run) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("format", Integer.toString(CheckpointFiles.FORMAT));
        all.put("logz", VERSION);
        all.putAll(run);
        StringBuilder out = new StringBuilder();
        all.forEach((k, v) -> out.append(out.length() == 0 ? "" : ";").append(k).append('=').append(v));
        return out.toString();
    }

    private static String version() {
        try (java.io.InputStream in = Checkpointing.class.getResourceAsStream("/org/logz/version.properties")) {
            java.util.Properties p = new java.util.Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** The annealing state to resume from, refused with the first setting that differs when it is another run's. */
    public Optional<AnnealingState> resumeState(String fingerprint) {
        return resume(CheckpointFiles::readAnnealing, AnnealingState::fingerprint, fingerprint);
    }

    /** An annealing pass's checkpoints in a file of its own (ais, raise). */
    public AnnealingStore annealing() {
        return new AnnealingStore() {
            @Override
            public Checkpointing checkpointing() {
                return Checkpointing.this;
            }

            @Override
            public Optional<AnnealingState> resume(String fingerprint) {
                return resumeState(fingerprint);
            }

            @Override
            public void save(AnnealingState state) {
                CheckpointFiles.write(save, state);
            }

            @Override
            public boolean savesFinished() {
                return false;
            }
        };
    }

    /** The SMC sampler state to resume from, refused as {@link #resumeState} refuses. */
    public Optional<SmcState> resumeSmc(String fingerprint) {
        return resume(CheckpointFiles::readSmc, SmcState::fingerprint, fingerprint);
    }

    /** The tempered sampling state to resume from, refused as {@link #resumeState} refuses. */
    public Optional<TemperedState> resumeTempered(String fingerprint) {
        return resume(CheckpointFiles::readTempered, TemperedState::fingerprint, fingerprint);
    }

    private <T> Optional<T> resume(Function<Path, T> read, Function<T, String> fingerprintOf, String fingerprint) {
        if (resume == null) {
            return Optional.empty();
        }
        T state = read.apply(resume);
        requireSameRun(fingerprintOf.apply(state), fingerprint);
        return Optional.of(state);
    }

    /** A schedule in a fingerprint: its name (hashed past 40 characters), steps and the digest of its β's. */
    public static String scheduleKey(org.logz.schedule.Schedule schedule) {
        String name = schedule.name();
        return (name.length() <= 40 ? name : "#" + Integer.toHexString(name.hashCode())) + "/" + schedule.steps() + "/"
                + ContentDigest.of(schedule.betas());
    }

    /** Refuses a saved state whose fingerprint is not this run's, naming the first setting that differs. */
    void requireSameRun(String saved, String fingerprint) {
        requireSameRun(saved, fingerprint, null);
    }

    /** {@link #requireSameRun(String, String)} for one {@code pass} of a run that has several, named in the message. */
    void requireSameRun(String saved, String fingerprint, String pass) {
        if (!saved.equals(fingerprint)) {
            String of = pass == null ? "" : "the " + pass + "'s ";
            throw new UserException("--resume " + resume + ": the checkpoint is of another run (" + of
                    + difference(saved, fingerprint) + "); resume it with the settings it was written with");
        }
    }

    /** The first key whose value differs, as {@code key: checkpoint X, this run Y}. */
    private static String difference(String saved, String current) {
        Map<String, String> a = pairs(saved);
        Map<String, String> b = pairs(current);
        for (Map.Entry<String, String> e : b.entrySet()) {
            String was = a.get(e.getKey());
            if (!e.getValue().equals(was)) {
                return String.format(Locale.ROOT, "%s: checkpoint %s, this run %s", e.getKey(),
                        was == null ? "none" : was, e.getValue());
            }
        }
        return "settings differ";
    }

    private static Map<String, String> pairs(String fingerprint) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : fingerprint.split(";")) {
            int eq = pair.indexOf('=');
            out.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
        }
        return out;
    }
}
