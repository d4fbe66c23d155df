package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
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
 * log Z and standard error to the bit, for one method of every family that samples, whether the tasks run whole
 * replicates or, with fewer replicates than tasks, parts of each run's chains. Only wall-clock times differ, and where
 * chains were split the running trace, which pools the parts' sums, to rounding.
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

    /** Runs with fewer replicates than tasks: each run's chains split, and how many tasks and parts that makes. */
    static Stream<Arguments> splitRuns() {
        return Stream.of(
                Arguments.of("ais, one run in 5 parts", List.of("--chains", "300", "--steps", "50"), 5, 5),
                Arguments.of("raise on ising from the ground states, 2 runs in 2 parts", List.of("--model", "ising:L=4",
                        "--method", "raise", "--reverse-start", "ground:3", "--chains", "130", "--steps", "40",
                        "--seed", "5", "--replicates", "2"), 6, 3),
                Arguments.of("bar on gauss-toy, one run in 4 + 3 parts", List.of("--model", "gauss-toy", "--method", "bar",
                        "--chains", "300", "--reverse-chains", "150", "--steps", "30"), 7, 4),
                Arguments.of("rts on ising, 2 runs in 4 parts, one stage per round", List.of("--model", "ising:L=4",
                        "--method", "rts", "--chains", "700", "--batches", "3", "--levels", "10", "--sweeps", "40",
                        "--round-sweeps", "8", "--rounds", "3", "--mbar-samples", "1500", "--replicates", "2",
                        "--seed", "5"), 7, 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("splitRuns")
    void chainsSplitAcrossTasksGiveTheSingleProcessEstimate(String name, List<String> options, int tasks, int parts)
            throws Exception {
        JsonNode single = report(options, List.of());
        JsonNode spark = report(options, List.of("--spark", "local[4]", "--partitions", "7"));
        assertEquals(tasks, spark.get("spark").get("tasks").intValue(), name);
        assertEquals(parts, spark.get("spark").get("chainParts").intValue(), name);
        ((ObjectNode) spark).remove("spark");
        JsonNode a = withoutTimes(single);
        JsonNode b = withoutTimes(spark);
        if (a.has("trace")) {
            assertSameTrace(a.get("trace"), b.get("trace"), name);
        }
        ((ObjectNode) a).remove("trace");
        ((ObjectNode) b).remove("trace");
        assertEquals(a, b, name);
        assertEquals(single.get("logZ").doubleValue(), spark.get("logZ").doubleValue());
        assertEquals(single.get("stderr").doubleValue(), spark.get("stderr").doubleValue());
    }

    /** Trace values equal to 1e-12 relative (the parts' sums pooled in another order), everything else exactly. */
    private static void assertSameTrace(JsonNode a, JsonNode b, String name) {
        assertTrue(a != null && b != null, name + ": no trace");
        if (a.isNumber()) {
            double x = a.doubleValue();
            assertEquals(x, b.doubleValue(), 1e-12 * (1 + Math.abs(x)), name);
            return;
        }
        assertEquals(a.size(), b.size(), name);
        List<String> names = new ArrayList<>();
        a.fieldNames().forEachRemaining(names::add);
        if (a.isObject()) {
            for (String field : names) {
                assertSameTrace(a.get(field), b.get(field), name + " " + field);
            }
        } else if (a.isArray()) {
            for (int i = 0; i < a.size(); i++) {
                assertSameTrace(a.get(i), b.get(i), name);
            }
        } else {
            assertEquals(a, b, name);
        }
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
