package org.logz.options;

import java.util.function.Consumer;

/**
 * One option of a method family, declared once in its family's table ({@link SharedOptions}, {@link AnnealingOptions},
 * {@link TemperingOptions}, {@link SequentialOptions}, {@link SmcOptions}): the command-line name that
 * {@link org.logz.api.Estimation}'s messages use, the value label and help text that {@code logz estimate --help} prints, the
 * default a run takes when the option is not given, and the check of a value as it is set. The command line declares
 * its options from these tables and the Java API's setters set them, so both take the same names and defaults.
 *
 * @param name         the command-line name, {@code --steps}
 * @param type         the value's type
 * @param label        the value's label in the help ({@code K})
 * @param defaultValue the value of a run that does not set it; null where the model or method chooses (the help says how)
 * @param help         the help text, {@code ${DEFAULT-VALUE}} standing for the default; null for an option whose help
 *                     another table's option of the same name gives (a family's own default of a shared name)
 * @param check        refuses an impossible value as it is set, with the command line's one-line message
 */
public record FamilyOption<T>(String name, Class<T> type, String label, T defaultValue, String help, Consumer<T> check) {
    /** An option whose values are checked when the run starts, not as they are set. */
    FamilyOption(String name, Class<T> type, String label, T defaultValue, String help) {
        this(name, type, label, defaultValue, help, value -> { });
    }
}
