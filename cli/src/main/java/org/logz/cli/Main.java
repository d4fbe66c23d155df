package org.logz.cli;

import java.io.PrintWriter;

import org.logz.backend.BackendUnavailableException;
import org.logz.estimate.EstimationException;

import picocli.CommandLine;

/**
 * Entry point of the {@code logz} command. Exit codes: 0 success, 2 bad arguments or input (one line
 * on stderr, no stack trace), 1 a run that failed (e.g. degenerate weights) or an internal error.
 */
public final class Main {
    /** Exit code for user errors: bad arguments, unreadable or invalid files, unavailable backends. */
    static final int USER_ERROR = 2;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with the given streams; returns the exit code. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new LogzCommand());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, a) -> {
            err.println("logz: " + e.getMessage() + " (see '" + e.getCommandLine().getCommandName() + " --help')");
            return USER_ERROR;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException || e instanceof BackendUnavailableException) {
                err.println("logz: " + e.getMessage());
                return USER_ERROR;
            }
            if (e instanceof EstimationException) {
                err.println("logz: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cli.execute(args);
    }
}
