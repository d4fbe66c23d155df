package org.logz.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.storage.StorageLevel;
import org.logz.api.StagedPart;
import org.logz.api.StagedRuns;
import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.cli.Distributor;
import org.logz.cli.TaskReplicates;
import org.logz.estimate.tempered.TemperedStage;

/**
 * {@code logz estimate --spark MASTER}: the job's units (replicates, or each run's chain parts where there are fewer
 * replicates than tasks, {@link TaskReplicates#split}) split into contiguous ranges, one Spark task each; every task
 * parses the command line again where it runs, runs its range ({@link ReplicateTask}) and sends back the result
 * records, which the driver puts in unit order. Tempered sampling split by chains runs one Spark stage per stage of its
 * runs ({@link #staged}). Replicate b is keyed by {@code Philox.replicateSeed(seed, b)}, and each
 * chain by its index, wherever it runs, so the partitioning, the executors and a retried task change no bit.
 */
public final class SparkDistributor implements Distributor {
    @Override
    public Run run(String master, Integer partitions, TaskReplicates.Job job) {
        return inContext(master, sc -> {
            Map<String, String> shipped = ArgumentFiles.ship(job.args(), sc::addFile);
            int wanted = partitions == null ? sc.defaultParallelism() : partitions;
            TaskReplicates.Job split = TaskReplicates.split(job, wanted);
            int tasks = Math.min(wanted, split.units());
            if (split.staged()) {
                return new Run(staged(sc, split, tasks, stages -> new StageTask(split, stages, shipped)), tasks, split);
            }
            return new Run(run(sc, new ReplicateTask(split, shipped), split.units(), tasks), tasks, split);
        });
    }

    @Override
    public void warmUp() {
        inContext("local[1]", sc -> sc.parallelize(List.of(1), 1).map(x -> x).collect());
    }

    @Override
    public Commands commands(String master, Integer partitions, List<List<String>> commandLines) {
        return inContext(master, sc -> {
            List<String> all = new ArrayList<>();
            commandLines.forEach(all::addAll);
            Map<String, String> shipped = ArgumentFiles.ship(all, sc::addFile);
            int tasks = Math.min(partitions == null ? sc.defaultParallelism() : partitions, commandLines.size());
            List<CommandRun> runs = new ArrayList<>();
            for (Object run : run(sc, new CommandTask(commandLines, shipped), commandLines.size(), tasks)) {
                runs.add((CommandRun) run);
            }
            return new Commands(runs, tasks);
        });
    }

    /** {@code work} with a Spark context on {@code master}, its failures as the command line reports them. */
    private static <T> T inContext(String master, java.util.function.Function<JavaSparkContext, T> work) {
        MasterCheck.requireUsable(master);
        double executorWait = ExecutorWatch.seconds();
        SparkConf conf = new SparkConf().setMaster(master).setAppName("logz");
        conf.setIfMissing("spark.ui.enabled", "false");
        // Spark's progress bar of finished and running tasks, where someone watches a terminal
        conf.setIfMissing("spark.ui.showConsoleProgress", Boolean.toString(System.console() != null));
        JavaSparkContext sc;
        try {
            sc = new JavaSparkContext(conf);
        } catch (Exception e) {
            // Spark's Scala code throws SparkException, a checked exception, undeclared
            throw new UserException("--spark " + master + ": " + firstLine(e));
        }
        ExecutorWatch watch = new ExecutorWatch(sc, master, executorWait);
        try (sc; watch) {
            sc.setLogLevel("WARN");
            return work.apply(sc);
        } catch (UserException | EstimationException e) {
            if (watch.reason() != null) {
                throw new UserException("--spark " + master + ": " + watch.reason());
            }
            throw e;
        } catch (RuntimeException e) {
            if (watch.reason() != null) {
                throw new UserException("--spark " + master + ": " + watch.reason());
            }
            if (sc.sc().isStopped()) {
                // a master that never answered: Spark stops the context after its retries
                throw new UserException("--spark " + master + ": the Spark context stopped (" + firstLine(e)
                        + "); is the master running and reachable?");
            }
            throw e;
        }
    }

    /**
     * Units 0 to {@code units - 1} in {@code tasks} contiguous ranges, one task each, their records decoded and
     * concatenated in range order.
     */
    static List<Object> run(JavaSparkContext sc, Function<int[], byte[]> task, int units, int tasks) {
        List<int[]> ranges = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            int from = (int) ((long) units * i / tasks);
            int to = (int) ((long) units * (i + 1) / tasks);
            ranges.add(new int[] {from, to - from});
        }
        List<byte[]> parts;
        try {
            parts = sc.parallelize(ranges, tasks).map(task).collect();
        } catch (Exception e) {
            throw failure(e);
        }
        List<Object> records = new ArrayList<>();
        for (byte[] part : parts) {
            records.addAll((List<?>) RecordCodec.decode(part));
        }
        return records;
    }

    /**
     * A staged job's parts in {@code tasks} contiguous ranges, one partition each, run stage after stage: each stage
     * maps the partitions (kept by Spark, spilled to disk where memory runs short, recomputed from the stage before
     * where an executor is lost) through the task {@code stageTask} makes for it, and the driver reads the results of
     * the parts that ran it, without their states, to choose the next stage. Returns each replicate's result.
     */
    static List<Object> staged(JavaSparkContext sc, TaskReplicates.Job job, int tasks,
                               java.util.function.Function<Map<Integer, TemperedStage>, Function<byte[], byte[]>> stageTask) {
        StagedRuns runs = TaskReplicates.stagedRuns(job);
        List<byte[]> initial = new ArrayList<>();
        int units = job.units();
        for (int i = 0; i < tasks; i++) {
            List<StagedPart> parts = job.parts().subList((int) ((long) units * i / tasks),
                    (int) ((long) units * (i + 1) / tasks)).stream().map(StagedPart::of).toList();
            initial.add(RecordCodec.encode(parts));
        }
        // the last two stages stay persisted: a partition lost in a stage is recomputed from the one before
        List<JavaRDD<byte[]>> kept = new ArrayList<>(List.of(sc.parallelize(initial, tasks)));
        try {
            for (Map<Integer, TemperedStage> stages = runs.stages(); !stages.isEmpty(); stages = runs.stages()) {
                JavaRDD<byte[]> next = kept.get(kept.size() - 1).map(stageTask.apply(stages))
                        .persist(StorageLevel.MEMORY_AND_DISK());
                kept.add(next);
                List<StagedPart> results = new ArrayList<>();
                for (byte[] partition : next.map(new StageTask.Results(stages.keySet())).collect()) {
                    results.addAll(StageTask.decode(partition));
                }
                while (kept.size() > 2) {
                    kept.remove(0).unpersist(false);
                }
                runs.accept(results);
            }
        } catch (UserException | EstimationException e) {
            throw e;
        } catch (Exception e) {
            throw failure(e);
        } finally {
            kept.forEach(rdd -> rdd.unpersist(false));
        }
        return new ArrayList<>(runs.results());
    }

    /** A failed job as the command line reports it: a task's own user error or failed run, else the job's reason. */
    private static RuntimeException failure(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UserException) {
                return new UserException("a Spark task: " + t.getMessage());
            }
            if (t instanceof EstimationException) {
                return new EstimationException("a Spark task: " + t.getMessage());
            }
        }
        return new EstimationException("the Spark job failed: " + firstLine(e));
    }

    private static String firstLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
