package org.logz.bench.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.api.Estimation;
import org.logz.api.Outcome;
import org.logz.base.UserException;
import org.logz.cli.Distributor;
import org.logz.cli.EstimateCommand;
import org.logz.cli.OptionChecks;
import org.logz.cli.TaskReplicates;
import org.logz.estimate.Estimate;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code logz bench spark}: the replicates of one {@code logz estimate} command line run in this process, then as
 * Spark tasks on local masters of 1, 2, 4... executor threads; wall-clock time (each master's context start included)
 * and its ratio to the single process, measured in one run, with a check that every way gives the same bits. An
 * untimed local context runs first, so that no timed master pays alone for loading Spark's classes, and the single
 * process runs twice, its faster time the base, so that it does not pay alone for compiling logz's code.
 */
@Command(name = "spark", mixinStandardHelpOptions = true,
        description = "Replicates of a 'logz estimate' command line in one process and on local Spark masters: seconds, "
                + "replicates per second and the ratio to one process (needs the logz-spark module: run through ./logz).")
final class SparkBench implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--executors", split = ",", defaultValue = "1,2,4", paramLabel = "N,N,...",
            description = "Local masters to time, local[N] with N tasks at once. Default: ${DEFAULT-VALUE}.")
    List<Integer> executors;

    @Parameters(paramLabel = "ESTIMATE-OPTIONS", arity = "1..*",
            description = "The options of 'logz estimate' (after --), --replicates among them.")
    List<String> options;

    @Override
    public void run() {
        for (int n : executors) {
            OptionChecks.atLeast("--executors", n, 1);
        }
        List<String> args = new ArrayList<>(List.of("estimate"));
        args.addAll(options);
        int replicates = replicates(TaskReplicates.command(args));
        Estimation single = TaskReplicates.estimation(args, Runtime.getRuntime().availableProcessors());
        if (replicates < 2 && !single.splitsChains()) {
            throw new UserException("bench spark times replicates, or one run's chains where the method splits them "
                    + "(ais, raise, bar, cumulant, histogram): give --replicates 2 or more after --");
        }
        Distributor distributor = Distributor.installed();
        distributor.warmUp();
        // the first run compiles logz's code for all that follow: timed again warm, the faster of the two is the base
        long started = System.nanoTime();
        Outcome outcome = single.outcome(0, replicates, b -> null);
        double cold = (System.nanoTime() - started) * 1e-9;
        started = System.nanoTime();
        requireSameBits(outcome.runs(), single.outcome(0, replicates, b -> null).runs(), "one process");
        double base = Math.min(cold, (System.nanoTime() - started) * 1e-9);
        TaskReplicates.Job job = TaskReplicates.Job.of(args, replicates, outcome);
        PrintWriter out = spec.commandLine().getOut();
        out.println("| run | seconds | replicates/s | time / one process |");
        out.println("| --- | ---: | ---: | ---: |");
        row(out, "one process, " + Runtime.getRuntime().availableProcessors() + " threads", base, replicates, base);
        for (int n : executors) {
            started = System.nanoTime();
            Distributor.Run run = distributor.run("local[" + n + "]", n, job);
            double seconds = (System.nanoTime() - started) * 1e-9;
            requireSameBits(outcome.runs(), TaskReplicates.outcome(single, outcome, run.job(), run.records()).runs(),
                    "local[" + n + "]");
            row(out, "spark local[" + n + "], " + run.tasks() + (run.tasks() == 1 ? " task" : " tasks"), seconds, replicates, base);
        }
    }

    /** --replicates of the estimate options; options that write or distribute are refused. */
    private static int replicates(EstimateCommand c) {
        for (String option : new String[] {"--spark", "--partitions", "--work", "--reverse-work", "--plot", "--checkpoint",
                "--resume"}) {
            if (c.matched(option)) {
                throw new UserException("bench spark times the replicates and writes nothing but its table; drop "
                        + option + " from the estimate options");
            }
        }
        return c.replicates();
    }

    private static void requireSameBits(List<? extends Estimate> reference, List<? extends Estimate> runs, String way) {
        for (int b = 0; b < reference.size(); b++) {
            double expected = reference.get(b).logZ();
            double got = runs.get(b).logZ();
            if (Double.doubleToLongBits(expected) != Double.doubleToLongBits(got)) {
                throw new IllegalStateException(way + " gave replicate " + b + " another log Z: " + got
                        + " against " + expected);
            }
        }
    }

    /** One row of the table, printed as soon as its way has run. */
    private static void row(PrintWriter out, String name, double seconds, int replicates, double base) {
        out.printf(Locale.ROOT, "| %s | %.2f | %.3f | %.2f |%n", name, seconds, replicates / seconds, seconds / base);
        out.flush();
    }
}
