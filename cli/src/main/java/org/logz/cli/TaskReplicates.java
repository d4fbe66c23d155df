package org.logz.cli;

import java.util.List;

import org.logz.UserException;
import org.logz.api.Estimation;
import org.logz.api.Outcome;
import org.logz.backend.Backends;
import org.logz.estimate.smc.SmcSampler;
import org.logz.schedule.Schedule;

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
     * What every task of a distributed run is given.
     *
     * @param args        the whole command line, {@code estimate} and its options
     * @param replicates  how many replicates the run has
     * @param schedule    the schedule the driver planned (a {@code varopt} pilot's), or null where tasks plan their own
     * @param pilotSweeps the driver's pilot sweeps, counted once in the report
     */
    public record Job(List<String> args, int replicates, Schedule schedule, long pilotSweeps) {
        public Job {
            args = List.copyOf(args);
        }

        /** The job of {@code args} with the schedule of the driver's {@code plan}, where a pilot chose it. */
        static Job of(List<String> args, int replicates, Outcome plan) {
            Schedule chosen = null;
            if (plan.pilotSweeps() > 0) {
                if (plan.plan() instanceof Outcome.Plan.Annealing a) {
                    chosen = a.schedule();
                } else if (plan.plan() instanceof Outcome.Plan.Smc smc && smc.steps() instanceof SmcSampler.Steps.Fixed f) {
                    chosen = f.schedule();
                }
            }
            return new Job(args, replicates, chosen, plan.pilotSweeps());
        }
    }

    /**
     * The records of the job's replicates {@code first} to {@code first + count - 1}, in order.
     *
     * @param threads host threads for the backend when the command line does not set {@code --threads}
     */
    public static List<? extends Record> run(Job job, int first, int count, int threads) {
        Estimation e = estimation(job.args(), threads);
        if (job.schedule() != null) {
            e.planned(job.schedule(), job.pilotSweeps());
        }
        return e.outcome(first, count, b -> null).replicates();
    }

    /** The estimation the command line describes, on the best backend here unless it names one. */
    static Estimation estimation(List<String> args, int threads) {
        EstimateCommand c = command(args);
        Estimation e = c.estimation(c.parseProblem());
        if (!c.matched("--backend")) {
            e.backend(Backends.best());
        }
        if (!c.matched("--threads")) {
            e.threads(threads);
        }
        return e;
    }

    /** The {@code logz estimate} command of a command line, parsed. */
    static EstimateCommand command(List<String> args) {
        var parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));
        if (!parsed.hasSubcommand() || !(parsed.subcommand().commandSpec().userObject() instanceof EstimateCommand c)) {
            throw new UserException("a distributed run takes a 'logz estimate' command line, got " + args);
        }
        return c;
    }
}
