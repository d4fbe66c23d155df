package org.logz.cli;

import java.util.List;
import java.util.ServiceLoader;

import org.logz.UserException;

/**
 * Runs the replicates of a {@code logz estimate} command line somewhere other than this process; found by
 * {@link ServiceLoader}. The logz-spark module provides the one behind {@code --spark}.
 */
public interface Distributor {
    /**
     * The run of the records ({@link org.logz.api.Outcome#replicates()}) of the job's replicates, in replicate order;
     * each task computes its share with {@link TaskReplicates#run}.
     *
     * @param master     where to run, as {@code --spark} names it
     * @param partitions how many tasks to split the replicates into; null for the cluster's default
     */
    Run replicates(String master, Integer partitions, TaskReplicates.Job job);

    /** The replicates' records in replicate order, and the number of tasks that ran them. */
    record Run(List<?> records, int tasks) {
        public Run {
            records = List.copyOf(records);
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
