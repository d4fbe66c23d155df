package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.junit.jupiter.api.Test;
import org.logz.cli.TaskReplicates;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.EstimationException;

/** A task that fails and runs again changes no bit of the estimate (issue 14, item 3), whole replicates or chain parts. */
class RetryTest {
    private static final List<String> ARGS = List.of("estimate", "--chains", "50", "--steps", "60", "--replicates", "6",
            "--backend", "cpu", "--seed", "11");

    /** Every first attempt of a task fails, as an executor lost mid-task would. */
    private record FailingFirstAttempt(Function<int[], byte[]> task) implements Function<int[], byte[]> {
        @Override
        public byte[] call(int[] range) throws Exception {
            if (TaskContext.get().attemptNumber() == 0) {
                throw new IllegalStateException("injected failure of the first attempt at replicates from " + range[0]);
            }
            return task.call(range);
        }
    }

    @Test
    void retriedTasksGiveTheBitsOfTasksThatNeverFailed() {
        TaskReplicates.Job replicates = new TaskReplicates.Job(ARGS, 6, null, 0, List.of());
        // one run of 300 chains in 5 parts of whole 64-chain blocks
        TaskReplicates.Job chains = TaskReplicates.split(new TaskReplicates.Job(List.of("estimate", "--chains", "300",
                "--steps", "60", "--backend", "cpu", "--seed", "11"), 1, null, 0, List.of()), 5);
        assertEquals(5, chains.units());
        // local[N,F]: N threads, F attempts per task
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2,2]").setAppName("retry")
                .set("spark.ui.enabled", "false"))) {
            sc.setLogLevel("OFF");
            for (TaskReplicates.Job job : List.of(replicates, chains)) {
                ReplicateTask task = new ReplicateTask(job, Map.of());
                List<Object> clean = SparkDistributor.run(sc, task, job.units(), 3);
                List<Object> retried = SparkDistributor.run(sc, new FailingFirstAttempt(task), job.units(), 3);
                assertEquals(job.units(), retried.size());
                for (int u = 0; u < clean.size(); u++) {
                    AnnealingResult a = (AnnealingResult) clean.get(u);
                    AnnealingResult r = (AnnealingResult) retried.get(u);
                    assertEquals(Double.doubleToLongBits(a.logZ()), Double.doubleToLongBits(r.logZ()), "unit " + u);
                    assertEquals(a.standardError(), r.standardError(), "unit " + u);
                    assertEquals(a.seed(), r.seed());
                    assertArrayEquals(a.logWeights(), r.logWeights(), "unit " + u + "'s final log weights");
                }
            }
        }
    }

    @Test
    void theInjectedFailureFailsTheJobWithoutARetry() {
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName("no retry")
                .set("spark.ui.enabled", "false"))) {
            sc.setLogLevel("OFF");
            EstimationException e = assertThrows(EstimationException.class, () -> SparkDistributor.run(sc,
                    new FailingFirstAttempt(new ReplicateTask(new TaskReplicates.Job(ARGS, 6, null, 0, List.of()), Map.of())), 6, 3));
            assertTrue(e.getMessage().startsWith("the Spark job failed: ") && e.getMessage().contains("injected failure"),
                    e.getMessage());
        }
    }
}
