package org.logz.cli;

import java.io.PrintWriter;
import java.util.List;

import org.logz.estimate.Warning;

import picocli.CommandLine.Option;

/**
 * How a command reports its run's warnings: one line each on stderr, a {@code warnings} list in the
 * JSON, and with {@code --strict} exit code {@value #STRICT_EXIT} when there is any.
 */
final class WarningReport {
    /** Exit code of a run that printed its result but raised warnings under {@code --strict}. */
    static final int STRICT_EXIT = 3;

    @Option(names = "--strict", description = "Exit with code 3 when the run raises any warning (low ESS, poor overlap, "
            + "unconverged rounds, ...); the result is still printed.")
    boolean strict;

    /** Prints each warning on {@code err} and returns the exit code: 0, or 3 under --strict with warnings. */
    int finish(PrintWriter err, List<Warning> warnings) {
        for (Warning w : warnings) {
            err.println("logz: warning [" + w.code() + "]: " + w.message());
        }
        err.flush();
        return strict && !warnings.isEmpty() ? STRICT_EXIT : 0;
    }
}
