package org.logz.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkFiles;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;
import org.logz.cli.Distributor;
import org.logz.cli.GridRuns;

/**
 * One Spark task of {@code logz grid}: command lines {@code range[0]} to {@code range[0] + range[1] - 1}, each run on
 * the executor as it would run alone (its input files Spark's copies, as many host threads as the task has cores
 * unless it sets {@code --threads}), their exit codes and output returned as encoded records.
 */
final class CommandTask implements Function<int[], byte[]> {
    private static final long serialVersionUID = 1L;

    private final ArrayList<ArrayList<String>> commandLines = new ArrayList<>();
    private final LinkedHashMap<String, String> shipped;

    CommandTask(List<List<String>> commandLines, Map<String, String> shipped) {
        commandLines.forEach(c -> this.commandLines.add(new ArrayList<>(c)));
        this.shipped = new LinkedHashMap<>(shipped);
    }

    @Override
    public byte[] call(int[] range) {
        List<Distributor.CommandRun> runs = new ArrayList<>();
        for (int i = range[0]; i < range[0] + range[1]; i++) {
            List<String> args = ArgumentFiles.resolve(commandLines.get(i), shipped, SparkFiles::get);
            runs.add(GridRuns.run(args, TaskContext.get().cpus()));
        }
        return RecordCodec.encode(runs);
    }
}
