package org.logz.cli;

import java.util.List;
import java.util.Map;

import org.logz.api.ChainPart;
import org.logz.api.Estimation;
import org.logz.api.Outcome;
import org.logz.api.StagedPart;
import org.logz.api.StagedRuns;
import org.logz.backend.Backends;
import org.logz.base.UserException;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.estimate.tempered.TemperedStage;
import org.logz.schedule.Schedule;

/**
 * One task's share of a distributed {@code logz estimate}: the command line parsed again where the task runs and its
 * units {@code first} to {@code first + count - 1} run there. A unit is a whole replicate, or where the run is split by
 * chains ({@link Job#parts()}) a {@link ChainPart}, which tempered sampling runs in stages, one per initial round, the
 * driver updating {@code log Ẑ} in between ({@link #stagedRuns}, {@link #runStage}). Replicate b is keyed by {@code Philox.replicateSeed(seed, b)} and
 * each of its chains by its index wherever it runs, so a distributed run gives the bits of a single process on the
 * same backend.
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
     * @param parts       the chain parts the units are, in order; empty where the units are the replicates
     * @param staged      whether the parts run in stages, carrying their state from one to the next (tempered sampling,
     *                    {@link #runStage}); else each runs once ({@link #run})
     */
    public record Job(List<String> args, int replicates, Schedule schedule, long pilotSweeps, List<ChainPart> parts,
                      boolean staged) {
        public Job {
            args = List.copyOf(args);
            parts = List.copyOf(parts);
        }

        /** How many units the tasks share. */
        public int units() {
            return parts.isEmpty() ? replicates : parts.size();
        }

        /** How many parts each run's chains are split into in one direction; 1 where the units are replicates. */
        public int partsPerRun() {
            return parts.isEmpty() ? 1 : (int) parts.stream()
                    .filter(p -> p.replicate() == 0 && p.reverse() == parts.get(0).reverse()).count();
        }

        /** This job with other arguments (a task's copies of the input files). */
        public Job withArgs(List<String> given) {
            return new Job(given, replicates, schedule, pilotSweeps, parts, staged);
        }

        /** The job of {@code args} with the schedule of the driver's {@code plan}, where a pilot chose it. */
        public static Job of(List<String> args, int replicates, Outcome plan) {
            Schedule chosen = null;
            if (plan.pilotSweeps() > 0) {
                if (plan.plan() instanceof Outcome.Plan.Annealing a) {
                    chosen = a.schedule();
                } else if (plan.plan() instanceof Outcome.Plan.Smc smc && smc.steps() instanceof SmcSampler.Steps.Fixed f) {
                    chosen = f.schedule();
                }
            }
            return new Job(args, replicates, chosen, plan.pilotSweeps(), List.of(), false);
        }
    }

    /**
     * The job for {@code tasks} tasks: its replicates where there are at least as many, else, where the method allows
     * ({@link Estimation#splitsChains()}), every run's chains split so that there are at least {@code tasks} units.
     */
    public static Job split(Job job, int tasks) {
        if (tasks <= job.replicates()) {
            return job;
        }
        EstimateCommand c = command(job.args());
        Estimation e = c.estimation(c.parseProblem());
        if (!e.splitsChains()) {
            return job;
        }
        return new Job(job.args(), job.replicates(), job.schedule(), job.pilotSweeps(),
                e.chainParts(job.replicates(), tasks), e.stagesChains());
    }

    /**
     * The records of the job's units {@code first} to {@code first + count - 1}, in order: replicates' records
     * ({@link Outcome#replicates()}), or chain parts' partial {@code AnnealingResult}s.
     *
     * @param threads host threads for the backend when the command line does not set {@code --threads}
     */
    public static List<? extends Record> run(Job job, int first, int count, int threads) {
        Estimation e = estimation(job.args(), threads);
        if (job.schedule() != null) {
            e.planned(job.schedule(), job.pilotSweeps());
        }
        if (!job.parts().isEmpty()) {
            return e.run(job.parts().subList(first, first + count));
        }
        return e.outcome(first, count, b -> null).replicates();
    }

    /** The driver of a staged job ({@link Job#staged()}): a coordinator for each replicate's tempered run. */
    public static StagedRuns stagedRuns(Job job) {
        return new StagedRuns(estimation(job.args(), 1), job.replicates());
    }

    /**
     * One stage of a staged job on the parts one task carries ({@link Estimation#runStage}), in order.
     *
     * @param threads host threads for the backend when the command line does not set {@code --threads}
     */
    public static List<StagedPart> runStage(Job job, Map<Integer, TemperedStage> stages, List<StagedPart> parts,
                                            int threads) {
        return estimation(job.args(), threads).runStage(stages, parts);
    }

    /** The driver's outcome: its {@code plan} completed with the records the tasks of {@code job} returned, in unit order. */
    public static Outcome outcome(Estimation driver, Outcome plan, Job job, List<?> records) {
        if (job.parts().isEmpty() || job.staged()) {
            return plan.withReplicates(records);
        }
        return driver.combine(plan, job.parts(), records.stream().map(AnnealingResult.class::cast).toList());
    }

    /** The estimation the command line describes, on the best backend here unless it names one. */
    public static Estimation estimation(List<String> args, int threads) {
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
    public static EstimateCommand command(List<String> args) {
        var parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));
        if (!parsed.hasSubcommand() || !(parsed.subcommand().commandSpec().userObject() instanceof EstimateCommand c)) {
            throw new UserException("a distributed run takes a 'logz estimate' command line, got " + args);
        }
        return c;
    }
}
