package org.logz.cli;

import org.logz.base.UserException;

/** Checks of option values shared by commands that picocli's types do not express. */
final class OptionChecks {
    private OptionChecks() {
    }

    /** A message naming the option when {@code value} is below {@code min}. */
    static void atLeast(String option, int value, int min) {
        if (value < min) {
            throw new UserException(option + " must be at least " + min + ", got " + value);
        }
    }
}
