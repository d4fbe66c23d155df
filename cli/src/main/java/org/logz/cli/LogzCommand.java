package org.logz.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code logz} command; the work is in its subcommands. */
@Command(name = "logz", mixinStandardHelpOptions = true, version = "logz 0.1.0",
        description = "Log partition functions of large probabilistic models with particle methods.",
        subcommands = {EstimateCommand.class, ExactCommand.class, BarCommand.class, TrainCommand.class, BenchCommand.class,
                BackendsCommand.class},
        synopsisSubcommandLabel = "COMMAND")
final class LogzCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
