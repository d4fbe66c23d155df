package org.logz.kernel;

import java.util.Locale;
import java.util.Map;

import org.logz.base.UserException;
import org.logz.numeric.Decimal;

/** The values of {@code key=value} specs ({@code gmm:d=10,...}, {@code --kernel hmc:leapfrog=200,...}), one message each. */
public final class SpecValues {
    private SpecValues() {
    }

    /** A finite decimal, or {@code fallback} where the key is absent. */
    public static double number(Map<String, String> p, String key, double fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        return Decimal.parse(p.get(key)).orElseThrow(() -> new UserException(key + " = '" + p.get(key)
                + "' is not a finite decimal number"));
    }

    /** An integer of at most nine digits, or {@code fallback} where the key is absent. */
    public static int integer(Map<String, String> p, String key, int fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        String v = p.get(key);
        if (!v.matches("[+-]?[0-9]{1,9}")) {
            throw new UserException(key + " = '" + v + "' is not an integer");
        }
        return Decimal.parseInt(v);
    }

    /** {@code on} or {@code off}, or {@code fallback} where the key is absent. */
    public static boolean onOff(Map<String, String> p, String key, boolean fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        return switch (p.get(key).toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new UserException(key + " must be on or off, got '" + p.get(key) + "'");
        };
    }
}
