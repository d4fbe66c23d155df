package org.logz.spark;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.SparkFiles;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;
import org.logz.cli.TaskReplicates;

/**
 * One Spark task: units {@code range[0]} to {@code range[0] + range[1] - 1} (replicates or chain parts) of a
 * {@code logz estimate} command line, run on the executor with as many host threads as the task has cores, returned
 * as encoded records.
 */
final class ReplicateTask implements Function<int[], byte[]> {
    private static final long serialVersionUID = 1L;

    /** The job (a record, which Java serialization cannot carry) as {@link RecordCodec} bytes. */
    private final byte[] job;
    private final LinkedHashMap<String, String> shipped;

    ReplicateTask(TaskReplicates.Job job, Map<String, String> shipped) {
        this.job = RecordCodec.encode(job);
        this.shipped = new LinkedHashMap<>(shipped);
    }

    @Override
    public byte[] call(int[] range) {
        TaskReplicates.Job given = (TaskReplicates.Job) RecordCodec.decode(job);
        TaskReplicates.Job here = given.withArgs(ArgumentFiles.resolve(given.args(), shipped, SparkFiles::get));
        return RecordCodec.encode(TaskReplicates.run(here, range[0], range[1], TaskContext.get().cpus()));
    }
}
