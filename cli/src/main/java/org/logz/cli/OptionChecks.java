package org.logz.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.OptionalDouble;

import org.logz.base.UserException;

/** Checks of option values shared by commands that picocli's types do not express. */
public final class OptionChecks {
    private OptionChecks() {
    }

    /** A message naming the option when {@code value} is below {@code min}. */
    public static void atLeast(String option, int value, int min) {
        if (value < min) {
            throw new UserException(option + " must be at least " + min + ", got " + value);
        }
    }

    /** The path an option names when it is an existing file (model and data options also take names). */
    public static Path existingFile(String spec) {
        if (spec == null || spec.isBlank()) {
            return null;
        }
        try {
            Path p = Path.of(spec);
            return Files.isRegularFile(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    public static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
