package org.logz.cli;

import java.util.List;
import java.util.ServiceLoader;

import org.logz.base.UserException;

/**
 * Runs the replicates (or a run's chains) of a {@code logz estimate} command line somewhere other than this process; found by
 * {@link ServiceLoader}. The logz-spark module provides the one behind {@code --spark}.
 */
public interface Distributor {
    /**
     * The job run as tasks: split for the number of tasks ({@link TaskReplicates#split}), each task computing its share
     * of the units with {@link TaskReplicates#run}, and the records returned in unit order; a staged job (tempered
     * sampling split by chains) runs one round of tasks per stage ({@link TaskReplicates#runStage}), the tasks keeping
     * their parts' states, and returns each replicate's result.
     *
     * @param master     where to run, as {@code --spark} names it
     * @param partitions how many tasks to run; null for the cluster's default parallelism
     */
    Run run(String master, Integer partitions, TaskReplicates.Job job);

    /**
     * Starts and stops a local run of nothing, so that the first timed run of {@code bench spark} does not pay alone for
     * loading the distributor's classes.
     */
    void warmUp();

    /** The units' records in order, the number of tasks that ran them, and the job as it was split. */
    record Run(List<?> records, int tasks, TaskReplicates.Job job) {
        public Run {
            records = List.copyOf(records);
        }
    }

    /**
     * Whole {@code logz} command lines (the points of {@code logz grid}) as tasks, in contiguous ranges, each run in
     * its task's process by {@link GridRuns#run}; the input files they name travel with the job.
     *
     * @param partitions how many tasks to run (at most one per command line); null for the cluster's default
     */
    Commands commands(String master, Integer partitions, List<List<String>> commandLines);

    /** What one command line did: its exit code and what it printed. */
    record CommandRun(int exit, String out, String err) {
    }

    /** The command lines' runs in order, and the number of tasks that ran them. */
    record Commands(List<CommandRun> runs, int tasks) {
        public Commands {
            runs = List.copyOf(runs);
        }
    }

    /** The installed distributor, or the reason there is none. */
    static Distributor installed() {
        return ServiceLoader.load(Distributor.class).findFirst().orElseThrow(() -> new UserException(
                "--spark needs the logz-spark module and Apache Spark on the class path: run it as "
                        + "'./logz estimate ... --spark MASTER' from a built checkout, or through spark-submit "
                        + "(README, 'Scale out with Spark')"));
    }
}
