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
import org.logz.base.EstimationException;
import org.logz.cli.TaskReplicates;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.tempered.TemperedResult;

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
        TaskReplicates.Job replicates = new TaskReplicates.Job(ARGS, 6, null, 0, List.of(), false);
        // one run of 300 chains in 5 parts of whole 64-chain blocks
        TaskReplicates.Job chains = TaskReplicates.split(new TaskReplicates.Job(List.of("estimate", "--chains", "300",
                "--steps", "60", "--backend", "cpu", "--seed", "11"), 1, null, 0, List.of(), false), 5);
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

    /** Every first attempt of a stage's task fails. */
    private record FailingFirstStageAttempt(Function<byte[], byte[]> task) implements Function<byte[], byte[]> {
        @Override
        public byte[] call(byte[] parts) throws Exception {
            if (TaskContext.get().attemptNumber() == 0) {
                throw new IllegalStateException("injected failure of the first attempt of a stage");
            }
            return task.call(parts);
        }
    }

    @Test
    void retriedStagesOfATemperedRunGiveTheBitsOfStagesThatNeverFailed() {
        // 500 chains in 3 groups: 3 blocks of 192 chains, one part each; annealing, up to 2 rounds, final run
        TaskReplicates.Job job = TaskReplicates.split(new TaskReplicates.Job(List.of("estimate", "--model", "ising:L=4",
                "--method", "rts", "--chains", "500", "--batches", "3", "--levels", "8", "--sweeps", "20",
                "--round-sweeps", "4", "--rounds", "2", "--mbar-samples", "500", "--backend", "cpu", "--seed", "11"), 1,
                null, 0, List.of(), false), 3);
        assertTrue(job.staged());
        assertEquals(3, job.units());
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2,2]").setAppName("retry")
                .set("spark.ui.enabled", "false"))) {
            sc.setLogLevel("OFF");
            List<Object> clean = SparkDistributor.staged(sc, job, 2, stages -> new StageTask(job, stages, Map.of()));
            List<Object> retried = SparkDistributor.staged(sc, job, 2,
                    stages -> new FailingFirstStageAttempt(new StageTask(job, stages, Map.of())));
            TemperedResult a = (TemperedResult) clean.get(0);
            TemperedResult r = (TemperedResult) retried.get(0);
            assertEquals(Double.doubleToLongBits(a.logZ()), Double.doubleToLongBits(r.logZ()));
            assertEquals(a.standardError(), r.standardError());
            for (int i = 0; i < a.estimates().size(); i++) {
                assertArrayEquals(a.estimates().get(i).curve(), r.estimates().get(i).curve(), 0.0,
                        a.estimates().get(i).method().toString());
            }
            assertArrayEquals(a.initialLogZ(), r.initialLogZ(), 0.0);
            assertEquals(a.initialRounds(), r.initialRounds());
        }
    }

    @Test
    void theInjectedFailureFailsTheJobWithoutARetry() {
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName("no retry")
                .set("spark.ui.enabled", "false"))) {
            sc.setLogLevel("OFF");
            EstimationException e = assertThrows(EstimationException.class, () -> SparkDistributor.run(sc,
                    new FailingFirstAttempt(new ReplicateTask(new TaskReplicates.Job(ARGS, 6, null, 0, List.of(), false), Map.of())), 6, 3));
            assertTrue(e.getMessage().startsWith("the Spark job failed: ") && e.getMessage().contains("injected failure"),
                    e.getMessage());
        }
    }
}
