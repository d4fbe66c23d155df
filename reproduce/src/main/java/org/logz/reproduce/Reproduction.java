package org.logz.reproduce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.model.Rbm;
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

        /**
         * The CD-25 RBM as a problem, or a one-line error saying how to fetch it. A smoke run takes any RBM with its 784
         * visible units (the tests' stand-ins); a reproduction needs its 784×500 shape.
         */
        public Problem cd25() {
            Path file = model == null ? Path.of(CD25) : model;
            if (!Files.exists(file)) {
                throw new UserException(file + " not found: this reproduction runs on the CD-25 MNIST RBM, which logz does "
                        + "not ship; fetch it as the README's \"Reference values\" shows (Habeck's paths repository, "
                        + "tests/data/" + CD25 + ") and name it with --model FILE");
            }
            if (!Files.isRegularFile(file)) {
                throw new UserException(file + " is not a file: --model names the CD-25 RBM's .npz file");
            }
            Problem problem = Problem.parse(file.toString());
            Rbm rbm = problem.rbm().orElseThrow(() -> new UserException(file + " is not an RBM file"));
            if (rbm.visible() != 784 || !smoke() && rbm.hidden() != 500) {
                throw new UserException(file + " is a " + rbm.visible() + "×" + rbm.hidden() + " RBM; the CD-25 RBM is "
                        + "784×500 (a smoke run, below scale " + SMOKE + ", takes any RBM with 784 visible units)");
            }
            return problem;
        }

        /**
         * The CD-25 RBM's name in a settings line: a file whose SHA-256 is not the published one's is named so (logz
         * stores its reference by that hash).
         */
        public String cd25Name(Problem problem) {
            return problem.storedReference().isPresent() ? "the CD-25 RBM"
                    : "a 784×" + problem.rbm().orElseThrow().hidden() + " RBM that is not the published CD-25 file (its "
                    + "SHA-256 differs)";
        }

        /** What results on {@code problem} are measured against: exact, {@code --reference}, or the stored one. */
        public Reference against(Problem problem, String what) {
            return problem.requireReference(reference, what);
        }
    }

    /**
     * The result: the settings that ran, what it was measured against, one line per number (the paper's beside logz's),
     * and the paper's claims as checked.
     *
     * @param settings what ran, in words (the scaled sizes included), built from the values that ran
     * @param against  the exact log Z or the reference the numbers are measured against, or null where none applies
     * @param lines    the numbers, the paper's beside logz's
     * @param claims   the paper's claims: held, differed, or not tested at this scale
     */
    record Outcome(String settings, Reference against, List<Line> lines, Claims claims) {
    }

    /**
     * One number: what it is, the paper's value as the paper gives it ("–" where the paper shows it only in a figure),
     * and logz's.
     */
    record Line(String quantity, String paper, String logz) {
    }
}
