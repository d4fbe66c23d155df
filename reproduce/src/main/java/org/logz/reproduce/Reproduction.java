package org.logz.reproduce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

/**
 * One headline result of a paper that {@code logz reproduce NAME} runs at the paper's settings, or at a stated fraction
 * of them ({@code --scale}), and prints beside the paper's numbers with a one-line verdict. An entry is a class of this
 * package and one line of {@code META-INF/services/org.logz.reproduce.Reproduction}; {@link Reproductions} finds it.
 */
public interface Reproduction {
    /** The name {@code logz reproduce} takes: the paper and the figure or table, e.g. {@code habeck-fig3}. */
    String name();

    /** The paper, the figure or table, and what it shows, in one line. */
    String summary();

    /**
     * The scale it runs at unless told: 1 where the paper's settings fit a 2-core machine in minutes, a stated fraction
     * where they do not.
     */
    double defaultScale();

    /** What the paper's full settings (scale 1) cost on a 2-core machine, or on a GPU, in words. */
    String fullCost();

    /** Whether it runs on the CD-25 MNIST RBM ({@code --model}, {@code --reference}); the others refuse those options. */
    default boolean onCd25() {
        return false;
    }

    /** Runs it at {@code context.scale()}. */
    Outcome run(Context context);

    /**
     * What a run has: the backend, the scale in (0, 1] (the fraction of the paper's particles, chains or replicates;
     * each entry says which, and clamps to the least that still runs the method), the seed, a progress listener, and
     * for the entries on the CD-25 MNIST RBM its file ({@code --model}, null for the working directory's
     * {@value #CD25}) and a reference where logz stores none for that file ({@code --reference}, or null).
     */
    record Context(ParticleBackend backend, double scale, long seed, ProgressListener progress, Path model,
                   String reference) {
        /** The CD-25 MNIST RBM's file name in Habeck's paths repository, which the README fetches. */
        public static final String CD25 = "mnistvh_CD25.npz";

        /** Below this scale a run is a smoke run: the smallest settings that exercise every part of it. */
        public static final double SMOKE = 0.01;

        /** {@code full} scaled, rounded and at least {@code least}. */
        public int scaled(int full, int least) {
            return Math.max(least, (int) Math.round(full * scale));
        }

        /**
         * Whether this is a smoke run (scale below {@link #SMOKE}): the tests' and the README check's, which may also
         * shrink what the scale does not name (a smaller data set, fewer steps). Its verdict is not a reproduction.
         */
        public boolean smoke() {
            return scale < SMOKE;
        }

        /** The CD-25 RBM as a problem, or a one-line error saying how to fetch it. */
        public Problem cd25() {
            Path file = model == null ? Path.of(CD25) : model;
            if (!Files.isRegularFile(file)) {
                throw new UserException(file + " not found: this reproduction runs on the CD-25 MNIST RBM, which logz does "
                        + "not ship; fetch it as the README's \"Reference values\" shows (Habeck's paths repository, "
                        + "tests/data/" + CD25 + ") and name it with --model FILE");
            }
            return Problem.parse(file.toString());
        }

        /** What results on {@code problem} are measured against: exact, {@code --reference}, or the stored one. */
        public Reference against(Problem problem, String what) {
            return problem.requireReference(reference, what);
        }
    }

    /**
     * The result: the settings that ran, one line per number (the paper's beside logz's), and the verdict.
     *
     * @param settings   what ran, in words (the scaled sizes included)
     * @param lines      the numbers, the paper's beside logz's
     * @param reproduced whether logz's numbers support the paper's claim the verdict names
     * @param verdict    one line: what agrees, or what differs and why
     */
    record Outcome(String settings, List<Line> lines, boolean reproduced, String verdict) {
        /**
         * The outcome of checking the paper's claims one by one: reproduced when none {@code differs}; the verdict names
         * what differs first, then what holds.
         */
        public static Outcome of(String settings, List<Line> lines, List<String> holds, List<String> differs) {
            if (differs.isEmpty()) {
                return new Outcome(settings, lines, true, String.join("; ", holds));
            }
            return new Outcome(settings, lines, false, String.join("; ", differs)
                    + (holds.isEmpty() ? "" : " (holds: " + String.join("; ", holds) + ")"));
        }
    }

    /**
     * One number: what it is, the paper's value as the paper gives it ("–" where the paper shows it only in a figure),
     * and logz's.
     */
    record Line(String quantity, String paper, String logz) {
    }
}
