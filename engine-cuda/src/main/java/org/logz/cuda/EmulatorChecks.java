package org.logz.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The emulator's check modes (kernels-cu {@code cuda_emu.h}), chosen by the system property
 * {@code logz.emulator.checks} or the environment variable {@code LOGZ_EMULATOR_CHECKS}: a comma-separated
 * list of {@code race} (random thread order between barriers and the shared-memory race detector) and
 * {@code memcheck} (guard pages around every device buffer, released buffers kept inaccessible), {@code profile}
 * (what a GPU profiler counts, per launch: {@link EmulatorProfile}; it loads the instrumented twin of the library,
 * so it is read once, when the library loads), or {@code none}. The test suite runs every emulated kernel test under
 * race and memcheck.
 *
 * @param races   random interleavings and the shared-memory race detector
 * @param memory  out-of-bounds and use-after-release detection on device buffers
 * @param profile coalescing, bank conflicts, divergence and traffic of every launch
 */
record EmulatorChecks(boolean races, boolean memory, boolean profile) {
    static final String PROPERTY = "logz.emulator.checks";

    /** The modes the property (or else the environment variable) asks for; none when neither is set. */
    static EmulatorChecks configured() {
        String value = System.getProperty(PROPERTY, System.getenv("LOGZ_EMULATOR_CHECKS"));
        return parse(value == null ? "" : value);
    }

    static EmulatorChecks parse(String value) {
        boolean races = false;
        boolean memory = false;
        boolean profile = false;
        for (String part : value.toLowerCase(Locale.ROOT).split(",")) {
            switch (part.strip()) {
                case "race" -> races = true;
                case "memcheck" -> memory = true;
                case "profile" -> profile = true;
                case "", "none" -> {
                }
                default -> throw new IllegalArgumentException(PROPERTY + ": unknown check '" + part.strip()
                        + "' (expected a comma-separated list of race, memcheck, profile, none)");
            }
        }
        return new EmulatorChecks(races, memory, profile);
    }

    /** The bits of {@code emu_runtime.h}: 1 races, 2 memory, 4 profile. */
    int bits() {
        return (races ? 1 : 0) | (memory ? 2 : 0) | (profile ? 4 : 0);
    }

    /** ", race and memcheck modes" or empty. */
    String description() {
        List<String> modes = new ArrayList<>();
        if (races) {
            modes.add("race");
        }
        if (memory) {
            modes.add("memcheck");
        }
        if (profile) {
            modes.add("profile");
        }
        return modes.isEmpty() ? "" : ", " + String.join(" and ", modes) + (modes.size() > 1 ? " modes" : " mode");
    }
}
