package org.logz.numeric;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.logz.base.UserException;

/** The {@code name:key=value,...} form of option values ({@code --model}, {@code --schedule}, {@code --kernel}). */
public final class Parameters {
    private Parameters() {
    }

    /**
     * {@code name:key=value,...} given to {@code option} as a map with lower-case keys; a bare name gives an empty map.
     * An empty part or a key given twice is refused, so a typo never silently yields to a later value.
     */
    public static Map<String, String> of(String option, String spec, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        int colon = spec.indexOf(':');
        if (colon < 0) {
            return out;
        }
        for (String part : spec.substring(colon + 1).split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new UserException(option + " " + spec + ": write " + name + ":key=value,...");
            }
            String key = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            if (out.put(key, part.substring(eq + 1).trim()) != null) {
                throw new UserException(option + " " + spec + ": " + key + " is given twice");
            }
        }
        return out;
    }
}
