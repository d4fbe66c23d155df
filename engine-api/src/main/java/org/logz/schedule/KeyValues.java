package org.logz.schedule;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.base.UserException;
import org.logz.numeric.Decimal;
import org.logz.numeric.Parameters;

/** The {@code head[:key=value,...]} settings of a planned schedule ({@code varopt}, {@code gms13}), checked once. */
final class KeyValues {
    private final String spec;
    private final Map<String, String> values;

    private KeyValues(String spec, Map<String, String> values) {
        this.spec = spec;
        this.values = values;
    }

    /**
     * Parses {@code spec} as {@code head} alone or followed by {@code :key=value,...} with each key among {@code keys}
     * at most once; {@code usage} is the form the messages quote.
     */
    static KeyValues parse(String spec, String head, List<String> keys, String usage) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (!s.equals(head) && !s.startsWith(head + ":")) {
            throw new UserException("'" + spec + "' is not " + usage);
        }
        Map<String, String> values = Parameters.of("--schedule", s, head);
        for (String key : values.keySet()) {
            if (!keys.contains(key)) {
                throw new UserException("--schedule " + spec + ": unknown key '" + key + "'; use " + String.join(", ", keys));
            }
        }
        return new KeyValues(spec, values);
    }

    /** The integer given for {@code key}, or {@code otherwise}. */
    int integer(String key, int otherwise) {
        String v = values.get(key);
        if (v == null) {
            return otherwise;
        }
        try {
            return Decimal.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UserException("--schedule " + spec + ": " + key + " must be an integer, got '" + v + "'");
        }
    }

    /** The finite decimal given for {@code key}, or {@code otherwise}. */
    double number(String key, double otherwise) {
        String v = values.get(key);
        return v == null ? otherwise : Decimal.parse(v).orElseThrow(() -> new UserException("--schedule " + spec + ": "
                + key + " '" + v + "' is not a finite decimal"));
    }
}
