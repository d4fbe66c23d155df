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

/** A task that fails and runs again changes no bit of the estimate (issue 14, item 3). */
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
        ReplicateTask task = new ReplicateTask(new TaskReplicates.Job(ARGS, 6, null, 0), Map.of());
        // local[N,F]: N threads, F attempts per task
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2,2]").setAppName("retry")
                .set("spark.ui.enabled", "false"))) {
            sc.setLogLevel("OFF");
            List<Object> clean = SparkDistributor.run(sc, task, 6, 3);
            List<Object> retried = SparkDistributor.run(sc, new FailingFirstAttempt(task), 6, 3);
            assertEquals(6, retried.size());
            for (int b = 0; b < clean.size(); b++) {
                AnnealingResult a = (AnnealingResult) clean.get(b);
                AnnealingResult r = (AnnealingResult) retried.get(b);
                assertEquals(Double.doubleToLongBits(a.logZ()), Double.doubleToLongBits(r.logZ()), "replicate " + b);
                assertEquals(a.standardError(), r.standardError(), "replicate " + b);
                assertEquals(a.seed(), r.seed());
                assertArrayEquals(a.logWeights(), r.logWeights(), "replicate " + b + "'s final log weights");
            }
        }
    }

    @Test
    void theInjectedFailureFailsTheJobWithoutARetry() {
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName("no retry")
                .set("spark.ui.enabled", "false"))) {
            sc.setLogLevel("OFF");
            EstimationException e = assertThrows(EstimationException.class, () -> SparkDistributor.run(sc,
                    new FailingFirstAttempt(new ReplicateTask(new TaskReplicates.Job(ARGS, 6, null, 0), Map.of())), 6, 3));
            assertTrue(e.getMessage().startsWith("the Spark job failed: ") && e.getMessage().contains("injected failure"),
                    e.getMessage());
        }
    }
}
