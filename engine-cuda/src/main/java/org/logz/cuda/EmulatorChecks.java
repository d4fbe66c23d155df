package org.logz.cuda;

import java.util.Locale;

/**
 * The emulator's check modes (kernels-cu {@code cuda_emu.h}), chosen by the system property
 * {@code logz.emulator.checks} or the environment variable {@code LOGZ_EMULATOR_CHECKS}: a comma-separated
 * list of {@code race} (random thread order between barriers and the shared-memory race detector) and
 * {@code memcheck} (guard pages around every device buffer, released buffers kept inaccessible), or
 * {@code none}. The test suite runs every emulated kernel test under both.
 *
 * @param races  random interleavings and the shared-memory race detector
 * @param memory out-of-bounds and use-after-release detection on device buffers
 */
record EmulatorChecks(boolean races, boolean memory) {
    static final String PROPERTY = "logz.emulator.checks";

    /** The modes the property (or else the environment variable) asks for; none when neither is set. */
    static EmulatorChecks configured() {
        String value = System.getProperty(PROPERTY, System.getenv("LOGZ_EMULATOR_CHECKS"));
        return parse(value == null ? "" : value);
    }

    static EmulatorChecks parse(String value) {
        boolean races = false;
        boolean memory = false;
        for (String part : value.toLowerCase(Locale.ROOT).split(",")) {
            switch (part.strip()) {
                case "race" -> races = true;
                case "memcheck" -> memory = true;
                case "", "none" -> {
                }
                default -> throw new IllegalArgumentException(PROPERTY + ": unknown check '" + part.strip()
                        + "' (expected a comma-separated list of race, memcheck, none)");
            }
        }
        return new EmulatorChecks(races, memory);
    }

    /** The bits of {@code emu_runtime.h}: 1 races, 2 memory. */
    int bits() {
        return (races ? 1 : 0) | (memory ? 2 : 0);
    }

    /** ", race and memcheck modes" or empty. */
    String description() {
        if (!races && !memory) {
            return "";
        }
        return ", " + (races && memory ? "race and memcheck modes" : races ? "race mode" : "memcheck mode");
    }
}
