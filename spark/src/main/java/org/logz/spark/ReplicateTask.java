package org.logz.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkFiles;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;
import org.logz.cli.TaskReplicates;

/**
 * One Spark task: replicates {@code range[0]} to {@code range[0] + range[1] - 1} of a {@code logz estimate} command
 * line, run on the executor with as many host threads as the task has cores, returned as encoded records.
 */
final class ReplicateTask implements Function<int[], byte[]> {
    private static final long serialVersionUID = 1L;

    private final ArrayList<String> args;
    private final LinkedHashMap<String, String> shipped;

    ReplicateTask(List<String> args, Map<String, String> shipped) {
        this.args = new ArrayList<>(args);
        this.shipped = new LinkedHashMap<>(shipped);
    }

    @Override
    public byte[] call(int[] range) {
        List<String> here = ArgumentFiles.resolve(args, shipped, SparkFiles::get);
        return RecordCodec.encode(TaskReplicates.run(here, range[0], range[1], TaskContext.get().cpus()));
    }
}
