package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.logz.cli.Main;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code logz grid --spark}: a list of models run as Spark tasks gives every point's report of the grid in one process. */
class SparkGridTest {
    private static final List<String> GRID = List.of("grid", "--json", "--vary", "--model=gauss-toy", "--vary",
            "--model=ising:L=4", "--vary", "--seed=1,2", "--", "--method", "bar", "--chains", "60", "--steps", "20",
            "--backend", "cpu");

    @Test
    void sparkRunsEveryPointAsOneProcessWould() throws Exception {
        JsonNode here = grid(List.of());
        JsonNode spark = grid(List.of("--spark", "local[2]", "--partitions", "3"));
        assertEquals(3, spark.get("spark").get("tasks").intValue());
        JsonNode a = here.get("points");
        JsonNode b = spark.get("points");
        assertEquals(4, a.size());
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).get("values"), b.get(i).get("values"));
            assertEquals(0, b.get(i).get("exit").intValue());
            ObjectNode x = a.get(i).get("report").deepCopy();
            ObjectNode y = b.get(i).get("report").deepCopy();
            x.remove("seconds");
            y.remove("seconds");
            assertEquals(x, y, "point " + i);
        }
    }

    private static JsonNode grid(List<String> spark) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = Stream.concat(GRID.subList(0, 2).stream(), Stream.concat(spark.stream(),
                GRID.subList(2, GRID.size()).stream())).toArray(String[]::new);
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertTrue(code == 0, String.join(" ", args) + " exited " + code + ": " + err);
        return new ObjectMapper().readTree(out.toString());
    }
}
