package org.logz.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ServiceLoader;

import org.logz.backend.BackendUnavailableException;
import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.memory.HostMemory;
import org.logz.numeric.Decimal;

import picocli.CommandLine;

/**
 * Entry point of the {@code logz} command. Exit codes: 0 success, 2 a user error (bad arguments or
 * input: a {@link UserException}, one line on stderr, no stack trace), 1 a run that failed (e.g.
 * degenerate weights) or an internal error (one line naming the exception; {@code --debug} adds the
 * stack trace), 3 warnings under {@code --strict}. A report that cannot be written to standard output is a failed run
 * (1), or the silent 141 of a closed pipe ({@link StandardOutput}).
 */
public final class Main {
    /** Exit code for user errors: bad arguments, unreadable or invalid files, unavailable backends. */
    public static final int USER_ERROR = 2;
    /** Exit code for failed runs and internal errors. */
    static final int FAILURE = 1;

    private Main() {
    }

    public static void main(String[] args) {
        StandardOutput stdout = StandardOutput.open();
        // whatever writes to System.out (a library) shares the stream, so its failures are seen too
        System.setOut(new PrintStream(stdout, true, StandardOutput.charset()));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardOutput.charset()), true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(stdout.exitCode(run(args, out, err), out, err));
    }

    /** Runs the command with the given streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine();
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, a) -> {
            err.println("logz: " + e.getMessage() + " (see '" + e.getCommandLine().getCommandName() + " --help')");
            return USER_ERROR;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> report(e, debug(parseResult), err));
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            // what the up-front checks did not foresee (a model file's arrays, a backend's copies): one line, exit 2
            if (String.valueOf(e.getMessage()).contains("native thread")) {
                err.println("logz: the operating system refused the JVM another thread (" + e.getMessage() + "); ask "
                        + "for fewer threads or tasks");
                err.flush();
                return USER_ERROR;
            }
            err.println("logz: the JVM ran out of heap (" + HostMemory.format(Runtime.getRuntime().maxMemory())
                    + "): " + e.getMessage() + "; raise its heap with LOGZ_JAVA_OPTS=-Xmx<size> or ask for less");
            err.flush();
            return USER_ERROR;
        }
    }

    /**
     * The logz command line with the commands of the modules on the class path ({@link CommandPlugin}) and its
     * converters: what runs a command here and parses it again on a Spark executor.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new LogzCommand());
        // plugged-in commands (bench) list before backends, which stays last in the help and the usage errors
        ServiceLoader.load(CommandPlugin.class).forEach(p -> cli.addSubcommand(p.command()));
        cli.addSubcommand(BackendsCommand.class);
        // DESIGN §8: numbers are finite decimals; Java's own forms (0x1p-1, 0.9d, NaN, Infinity) are refused. Registered
        // after every subcommand is added: a converter reaches only the subcommands added before it.
        cli.registerConverter(Double.class, Main::decimal);
        cli.registerConverter(double.class, Main::decimal);
        // integers in ASCII digits: Java's own parsers take any script's (--chains ٣٠ ran 30 chains)
        cli.registerConverter(Integer.class, Main::integer);
        cli.registerConverter(int.class, Main::integer);
        cli.registerConverter(Long.class, Main::longInteger);
        cli.registerConverter(long.class, Main::longInteger);
        return cli;
    }

    private static Integer integer(String text) {
        try {
            return Decimal.parseInt(text);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not an int");
        }
    }

    private static Long longInteger(String text) {
        try {
            return Decimal.parseLong(text);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a long");
        }
    }

    private static Double decimal(String text) {
        return Decimal.parse(text).orElseThrow(() -> new CommandLine.TypeConversionException("'" + text
                + "' is not a finite decimal number"));
    }

    /** Whether {@code --debug} was given to the command or any of its nested subcommands. */
    private static boolean debug(CommandLine.ParseResult parseResult) {
        for (CommandLine.ParseResult p = parseResult; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }

    /**
     * One line on {@code err} for an exception that escaped a command, and its exit code: the message of
     * a user error (2) or a failed run (1), the exception itself for anything else (1, an internal
     * error); with {@code debug}, the stack trace after the line.
     */
    static int report(Exception e, boolean debug, PrintWriter err) {
        int code;
        if (e instanceof UserException || e instanceof BackendUnavailableException) {
            err.println("logz: " + e.getMessage());
            code = USER_ERROR;
        } else if (e instanceof EstimationException) {
            err.println("logz: " + e.getMessage());
            code = FAILURE;
        } else {
            err.println("logz: internal error: " + e + (debug ? "" : " (rerun with --debug for the stack trace)"));
            code = FAILURE;
        }
        if (debug) {
            e.printStackTrace(err);
        }
        err.flush();
        return code;
    }
}
