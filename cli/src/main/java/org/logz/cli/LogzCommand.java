package org.logz.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code logz} command; the work is in its subcommands, so without one it is a usage error. Other
 * modules' commands ({@link CommandPlugin}) and {@code backends} are added by {@link Main#commandLine}.
 */
@Command(name = "logz", mixinStandardHelpOptions = true, version = "logz 0.1.0",
        description = "Log partition functions of large probabilistic models with particle methods.",
        subcommands = {EstimateCommand.class, GridCommand.class, ExactCommand.class, BarCommand.class, TrainCommand.class},
        synopsisSubcommandLabel = "COMMAND",
        footer = {"", "logz bench (speed, accuracy and calibration benchmarks) runs from the bench module, which the "
                + "./logz launcher builds on its first use, with ND4J and OpenBLAS as the baseline."})
final class LogzCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Read by {@link Main}'s error handler; inherited, so it goes after any subcommand. */
    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "On an error, print the stack trace after the one-line message.")
    boolean debug;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("logz: a command is missing; one of " + String.join(", ",
                spec.commandLine().getSubcommands().keySet()) + " (see 'logz --help')");
        return Main.USER_ERROR;
    }
}
