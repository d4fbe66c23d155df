package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.logz.cli.Main;

/** What --spark cannot do is refused with one line and exit code 2, before anything runs. */
class SparkRefusalsTest {
    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(new String[] {"--partitions", "3"}, "--partitions splits the replicates of a --spark run"),
                Arguments.of(new String[] {"--spark", "local[2]", "--partitions", "0"}, "--partitions must be between 1"),
                Arguments.of(new String[] {"--spark", " "}, "--spark needs a master URL"),
                Arguments.of(new String[] {"--spark", "local[2]", "--checkpoint", "/tmp/logz-spark-refused.ckpt"},
                        "--checkpoint saves a run in one process"),
                Arguments.of(new String[] {"--spark", "local[2]", "--model", "gpc:digits35", "--method", "ep"},
                        "--method ep is a deterministic approximation"),
                Arguments.of(new String[] {"--spark", "nowhere:7077"}, "--spark nowhere:7077: "),
                Arguments.of(new String[] {"--spark", "local[0]"}, "--spark local[0]: "),
                Arguments.of(new String[] {"--spark", "spark://127.0.0.1:1"}, "--spark spark://127.0.0.1:1: no master "
                        + "answers at 127.0.0.1:1 (Connection refused)"),
                Arguments.of(new String[] {"--spark", "local[1000000]"}, "--spark local[1000000]: a local master runs "
                        + "its tasks as threads of this process; at most 1024"),
                Arguments.of(new String[] {"--spark", "local[99999999999,2]"},
                        "--spark local[99999999999,2]: a local master"),
                Arguments.of(new String[] {"--spark", "yarn"}, "--spark yarn: this build of logz includes Spark's "
                        + "local[N] and standalone"),
                Arguments.of(new String[] {"--spark", "k8s://https://host:443"}, "--spark k8s://https://host:443: this "
                        + "build"),
                Arguments.of(new String[] {"--spark", "local[2]", "--model", "gpc:digits35", "--method", "arm"},
                        "--spark does not run rm/arm on a GP classifier"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void refused(String[] options, String message) {
        StringWriter err = new StringWriter();
        String[] args = Stream.concat(Stream.of("estimate", "--chains", "20", "--steps", "10"), Stream.of(options))
                .toArray(String[]::new);
        int code = Main.run(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        String[] lines = err.toString().strip().split("\n");
        assertTrue(lines[lines.length - 1].startsWith("logz: " + message), err.toString());
        assertTrue(lines.length <= 2, "the refusal (after the one-replicate note), and no Spark log: " + err);
    }
}
