package org.logz.cli;

import java.util.List;

import org.logz.UserException;
import org.logz.api.Estimation;
import org.logz.backend.Backends;

import picocli.CommandLine;

/**
 * One task's share of a distributed {@code logz estimate}: the command line parsed again where the task runs and
 * its replicates {@code first} to {@code first + count - 1} run there. Replicate b is keyed by
 * {@code Philox.replicateSeed(seed, b)} wherever it runs, so a distributed run gives the bits of a single process on
 * the same backend.
 */
public final class TaskReplicates {
    private TaskReplicates() {
    }

    /**
     * The records of the replicates, in order.
     *
     * @param args    the whole command line, {@code estimate} and its options
     * @param threads host threads for the backend when the command line does not set {@code --threads}
     */
    public static List<? extends Record> run(List<String> args, int first, int count, int threads) {
        return estimation(args, threads).outcome(first, count, b -> null).replicates();
    }

    /** The estimation the command line describes, on the best backend here unless it names one. */
    static Estimation estimation(List<String> args, int threads) {
        CommandLine.ParseResult parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));
        if (!parsed.hasSubcommand() || !(parsed.subcommand().commandSpec().userObject() instanceof EstimateCommand c)) {
            throw new UserException("a distributed run takes a 'logz estimate' command line, got " + args);
        }
        Estimation e = c.estimation(c.parseProblem());
        if (!c.matched("--backend")) {
            e.backend(Backends.best());
        }
        if (!c.matched("--threads")) {
            e.threads(threads);
        }
        return e;
    }
}
