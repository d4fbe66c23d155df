package org.logz.numeric;

import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * Finite decimal numbers as NumPy's {@code savetxt} writes and {@code loadtxt} reads them
 * ({@code 12}, {@code -0.5}, {@code 1.5e-3}, {@code .5}), and nothing else: Java's
 * {@link Double#parseDouble} also takes {@code 0x1p3}, {@code 1.0d}, {@code 2f} and {@code NaN},
 * which no other tool would write and which hide typos. Every number a user types or a file holds
 * (work values, priors, schedule and model parameters) is read here.
 */
public final class Decimal {
    /** Possessive quantifiers: a long line of digits followed by junk fails in linear time. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?+(?:\\d++\\.?+\\d*+|\\.\\d++)(?:[eE][+-]?+\\d++)?+");

    /** Integers in ASCII digits: {@link Integer#parseInt} also takes other scripts' digits (٣٠ for 30). */
    private static final Pattern INTEGER = Pattern.compile("[+-]?+[0-9]++");

    private Decimal() {
    }

    /**
     * {@link Integer#parseInt} for ASCII digits only, so that every number a user types has one form.
     *
     * @throws NumberFormatException as Integer.parseInt does, for any other text
     */
    public static int parseInt(String text) {
        requireInteger(text);
        return Integer.parseInt(text);
    }

    /** {@link Long#parseLong} for ASCII digits only ({@link #parseInt}). */
    public static long parseLong(String text) {
        requireInteger(text);
        return Long.parseLong(text);
    }

    private static void requireInteger(String text) {
        if (text == null || !INTEGER.matcher(text).matches()) {
            throw new NumberFormatException("For input string: \"" + text + "\"");
        }
    }

    /** The finite value of {@code text} (surrounding blanks ignored), or empty when it is not such a number. */
    public static OptionalDouble parse(String text) {
        String t = text.strip();
        if (!DECIMAL.matcher(t).matches()) {
            return OptionalDouble.empty();
        }
        double v = Double.parseDouble(t);
        return Double.isFinite(v) ? OptionalDouble.of(v) : OptionalDouble.empty();
    }

    /** Whether {@code text} has the decimal form, finite or not (1e400 has it and overflows). */
    public static boolean hasDecimalForm(String text) {
        return DECIMAL.matcher(text.strip()).matches();
    }
}
