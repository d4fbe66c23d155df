package org.logz.problem;

import java.util.Locale;

import org.logz.base.UserException;
import org.logz.numeric.Decimal;

/**
 * What a benchmark or a reproduction measures log Z against: the model's exact log Z (enumeration, Kaufman's formula, a
 * transfer matrix, a closed form or quadrature), or, where none exists, a reference with its standard error: one the user
 * gives ({@code --reference LOGZ[:SE]}), one logz stores for a model it knows by its file's SHA-256, or one it computes
 * by a series with a stated error (a Potts lattice deep in its ordered phase). Results against a
 * reference are labelled so: a reference has an error of its own and may be wrong (the CD-25 RBM's published 451.42 sits
 * 0.18 above logz's five independent estimates).
 *
 * @param logZ   the value
 * @param stdErr its standard error (0 for an exact value or a reference given without one)
 * @param kind   {@code exact} or {@code reference}
 * @param source where it comes from, in words
 */
public record Reference(double logZ, double stdErr, String kind, String source) {
    public static final String EXACT = "exact";
    public static final String REFERENCE = "reference";

    /**
     * The largest magnitude of a reference and its error: beyond any log Z of a float32 model (a million units with
     * pre-activations at logz's 2^14 limit give about 1.6e10), and small enough that squared errors stay finite.
     */
    public static final double LARGEST = 1e12;

    public Reference {
        if (!(Math.abs(logZ) <= LARGEST) || !(stdErr >= 0 && stdErr <= LARGEST)) {
            throw new UserException("a reference log Z must lie within ±1e12 with a standard error in [0, 1e12], got "
                    + logZ + " ± " + stdErr);
        }
        // -0 reads as 0
        logZ += 0.0;
        stdErr += 0.0;
        if (!kind.equals(EXACT) && !kind.equals(REFERENCE)) {
            throw new IllegalArgumentException("kind " + kind);
        }
    }

    /** The model's exact log Z, computed by {@code method}. */
    public static Reference exact(double logZ, String method) {
        return new Reference(logZ, 0, EXACT, method);
    }

    /** {@code --reference LOGZ[:SE]}: a finite log Z and, optionally, its non-negative standard error. */
    public static Reference parse(String spec) {
        String[] parts = spec.strip().split(":", -1);
        if (parts.length > 2) {
            throw new UserException("--reference takes LOGZ or LOGZ:SE (e.g. 451.24:0.015), got '" + spec + "'");
        }
        double value = number(parts[0], spec);
        double se = parts.length == 2 ? number(parts[1], spec) : 0;
        if (se < 0) {
            throw new UserException("--reference: the standard error must be non-negative, got '" + spec + "'");
        }
        if (Math.abs(value) > LARGEST || se > LARGEST) {
            throw new UserException("--reference: '" + spec + "' lies beyond ±1e12, past any log Z logz computes");
        }
        return new Reference(value, se, REFERENCE, "--reference " + spec.strip());
    }

    private static double number(String text, String spec) {
        return Decimal.parse(text).orElseThrow(() -> new UserException("--reference takes LOGZ or LOGZ:SE as finite "
                + "decimals (e.g. 451.24:0.015), got '" + spec + "'"));
    }

    /** "exact log Z 1339.2700" or "reference log Z 451.2400 ± 0.0150", for a table's caption. */
    public String label() {
        return kind.equals(EXACT) ? String.format(Locale.ROOT, "exact log Z %.4f", logZ)
                : stdErr > 0 ? String.format(Locale.ROOT, "reference log Z %.4f ± %.4f", logZ, stdErr)
                : String.format(Locale.ROOT, "reference log Z %.4f", logZ);
    }
}
