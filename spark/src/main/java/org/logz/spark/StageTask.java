package org.logz.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkFiles;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;
import org.logz.api.StagedPart;
import org.logz.cli.TaskReplicates;
import org.logz.estimate.tempered.TemperedStage;

/**
 * One Spark task of one stage of tempered sampling runs split by chains: the parts a partition carries (encoded
 * {@link StagedPart}s, chain states included) continue from their states through the stage each replicate runs, on
 * the executor with as many host threads as the task has cores, and the partition carries them on to the next stage.
 */
final class StageTask implements Function<byte[], byte[]> {
    private static final long serialVersionUID = 1L;

    private final byte[] job;
    private final byte[] stages;
    private final LinkedHashMap<String, String> shipped;

    StageTask(TaskReplicates.Job job, Map<Integer, TemperedStage> stages, Map<String, String> shipped) {
        this.job = RecordCodec.encode(job);
        this.stages = RecordCodec.encode(new LinkedHashMap<>(stages));
        this.shipped = new LinkedHashMap<>(shipped);
    }

    @Override
    public byte[] call(byte[] parts) {
        TaskReplicates.Job given = (TaskReplicates.Job) RecordCodec.decode(job);
        TaskReplicates.Job here = given.withArgs(ArgumentFiles.resolve(given.args(), shipped, SparkFiles::get));
        @SuppressWarnings("unchecked")
        Map<Integer, TemperedStage> next = (Map<Integer, TemperedStage>) RecordCodec.decode(stages);
        return RecordCodec.encode(TaskReplicates.runStage(here, next, decode(parts), TaskContext.get().cpus()));
    }

    /** The parts a partition carries. */
    static List<StagedPart> decode(byte[] parts) {
        List<StagedPart> out = new ArrayList<>();
        for (Object p : (List<?>) RecordCodec.decode(parts)) {
            out.add((StagedPart) p);
        }
        return out;
    }

    /**
     * What the driver reads of a partition after a stage: the results of the parts whose replicate ran it, without
     * their chain states.
     */
    static final class Results implements Function<byte[], byte[]> {
        private static final long serialVersionUID = 1L;

        private final int[] ran;

        Results(Collection<Integer> replicates) {
            this.ran = replicates.stream().mapToInt(Integer::intValue).sorted().toArray();
        }

        @Override
        public byte[] call(byte[] parts) {
            return RecordCodec.encode(decode(parts).stream()
                    .filter(p -> Arrays.binarySearch(ran, p.part().replicate()) >= 0)
                    .map(p -> new StagedPart(p.part(), null, p.result())).toList());
        }
    }
}
