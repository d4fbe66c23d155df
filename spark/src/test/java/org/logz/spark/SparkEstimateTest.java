package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.logz.cli.Main;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Issue 14's acceptance: {@code --spark local[4] --partitions 7} gives exactly the report of the single-process run,
 * log Z and standard error to the bit, for one method of every family that samples; only wall-clock times differ.
 */
class SparkEstimateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> families() {
        return Stream.of(
                Arguments.of("ais", List.of("--chains", "50", "--steps", "100", "--replicates", "9")),
                Arguments.of("ais with a varopt pilot", List.of("--chains", "40", "--steps", "60", "--schedule",
                        "varopt:pilot=200,chains=100", "--replicates", "7")),
                Arguments.of("raise on ising", List.of("--model", "ising:L=4", "--method", "raise", "--chains", "40",
                        "--steps", "60", "--seed", "5", "--replicates", "8")),
                Arguments.of("bar on gauss-toy", List.of("--model", "gauss-toy", "--method", "bar", "--chains", "50",
                        "--steps", "40", "--replicates", "7")),
                Arguments.of("rts", List.of("--method", "rts", "--chains", "20", "--levels", "10", "--sweeps", "40",
                        "--round-sweeps", "10", "--rounds", "2", "--batches", "5", "--mbar-samples", "100",
                        "--replicates", "7")),
                Arguments.of("arm", List.of("--method", "arm", "--particles", "40", "--gibbs-steps", "2",
                        "--replicates", "10")),
                Arguments.of("smc", List.of("--method", "smc", "--particles", "100", "--ess-target", "0.9",
                        "--replicates", "7")),
                Arguments.of("aisel on glmm", List.of("--model", "glmm:sim8", "--method", "aisel", "--particles", "50",
                        "--inner", "8", "--ess-target", "0.9", "--replicates", "7")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void sparkGivesTheSingleProcessBits(String name, List<String> options) throws Exception {
        JsonNode single = report(options, List.of());
        JsonNode spark = report(options, List.of("--spark", "local[4]", "--partitions", "7"));
        assertEquals("local[4]", spark.get("spark").get("master").textValue());
        assertEquals(7, spark.get("spark").get("tasks").intValue(), "seven tasks ran the replicates");
        ((ObjectNode) spark).remove("spark");
        assertEquals(withoutTimes(single), withoutTimes(spark), name);
        assertEquals(single.get("logZ").doubleValue(), spark.get("logZ").doubleValue());
        assertEquals(single.get("stderr").doubleValue(), spark.get("stderr").doubleValue());
        assertTrue(single.get("replicates").size() > 1, "the replicates are reported one by one");
    }

    private static JsonNode report(List<String> options, List<String> spark) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = Stream.of(List.of("estimate", "--json", "--backend", "cpu"), options, spark)
                .flatMap(List::stream).toArray(String[]::new);
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertTrue(code == 0 || code == 3, String.join(" ", args) + " exited " + code + ": " + err);
        return JSON.readTree(out.toString());
    }

    /** The report without its wall-clock seconds, the only thing that differs between runs. */
    private static JsonNode withoutTimes(JsonNode node) {
        JsonNode copy = node.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove("seconds");
        }
        node.forEach(SparkEstimateTest::strip);
    }
}
