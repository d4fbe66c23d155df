package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code logz grid}: every point is the run {@code logz estimate} makes alone, to the bit; bad grids are refused before
 * anything runs; a point that fails is reported in its row while the others run.
 */
class GridCommandTest {
    private static final String[] SHARED = {"--steps", "30", "--method", "bar", "--model", "gauss-toy"};

    @Test
    void everyPointIsTheEstimateItsCommandLineMakesAlone() throws Exception {
        Cli.Outcome grid = Cli.run(concat(new String[] {"grid", "--json", "--vary", "--chains=40,60", "--vary",
                "--seed=1,2,3", "--"}, SHARED));
        assertEquals(0, grid.code(), grid.err());
        JsonNode points = grid.json().get("points");
        assertEquals(6, points.size());
        int i = 0;
        for (String chains : List.of("40", "60")) {
            for (String seed : List.of("1", "2", "3")) {
                JsonNode point = points.get(i++);
                assertEquals(chains, point.get("values").get("--chains").textValue());
                assertEquals(seed, point.get("values").get("--seed").textValue());
                JsonNode alone = Cli.run(concat(new String[] {"estimate", "--json", "--chains", chains, "--seed", seed},
                        SHARED)).json();
                assertEquals(alone.get("logZ").doubleValue(), point.get("report").get("logZ").doubleValue(), 0.0);
                assertEquals(alone.get("stderr").doubleValue(), point.get("report").get("stderr").doubleValue(), 0.0);
            }
        }
        Cli.Outcome table = Cli.run(concat(new String[] {"grid", "--vary", "--chains=40,60", "--"}, SHARED));
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().startsWith("grid     2 points\n| --chains | log Z | ± | exact | warnings |"), table.out());
        assertTrue(table.out().contains("largest  --chains="), table.out());
    }

    @Test
    void aPointThatFailsIsReportedAndTheOthersRun() throws Exception {
        Cli.Outcome grid = Cli.run(concat(new String[] {"grid", "--json", "--vary", "--chains=40,1", "--"}, SHARED));
        assertEquals(2, grid.code(), grid.err());
        JsonNode points = grid.json().get("points");
        assertEquals(0, points.get(0).get("exit").intValue());
        assertTrue(points.get(0).has("report"));
        assertEquals(2, points.get(1).get("exit").intValue());
        assertTrue(points.get(1).get("error").textValue().contains("at least 2 chains"), points.toString());
        Cli.Outcome table = Cli.run(concat(new String[] {"grid", "--vary", "--chains=40,1", "--"}, SHARED));
        assertTrue(table.out().contains("| 1 | failed (exit 2): logz: "), table.out());
    }

    @Test
    void badGridsAreRefusedBeforeAnythingRuns() {
        Cli.assertUserError(Cli.run("grid", "--vary", "chains=1,2", "--", "--steps", "5"), "give OPTION=V1,V2");
        Cli.assertUserError(Cli.run("grid", "--vary", "--colour=red", "--"), "not an option of 'logz estimate'");
        Cli.assertUserError(Cli.run("grid", "--vary", "--compare-exact=1"), "takes a value");
        Cli.assertUserError(Cli.run("grid", "--vary", "--plot=a.png,b.png", "--"), "write over each other");
        Cli.assertUserError(Cli.run("grid", "--vary", "--chains=10,20", "--", "--chains", "30"), "both varied and given");
        Cli.assertUserError(Cli.run("grid", "--vary", "--chains=10,10", "--"), "the value 10 twice");
        Cli.assertUserError(Cli.run("grid", "--vary", "--chains=10,,20", "--"), "an empty value");
        Cli.assertUserError(Cli.run("grid", "--vary", "--chains=10", "--", "--json"), "give it to 'logz grid' before --");
        Cli.assertUserError(Cli.run("grid", "--vary", "--chains=10", "--partitions", "2", "--"), "add --spark MASTER");
        Cli.assertUserError(Cli.run("grid", "--vary", "--chains=10,20", "--", "-h"), "-h does not apply");
        Cli.assertUserError(Cli.run("grid", "--vary", "--schedule=varopt:pilot=10,chains=64", "--", "--method", "rts"),
                "grid point --schedule=varopt:pilot=10,chains=64: --schedule does not apply");
        Cli.assertUserError(Cli.run("grid", "--vary", "--model=no-such.npz", "--"), "grid point --model=no-such.npz");
        Cli.assertUserError(Cli.run("grid", "--vary", "--method=ais,rts", "--", "--reverse-chains", "5"),
                "grid point --method=ais: --reverse-chains does not apply");
        Cli.assertUserError(Cli.run("grid", "--vary", "--seed=1,2,3,4,5,6,7,8,9,10", "--vary",
                "--chains=" + String.join(",", IntStream.rangeClosed(2, 1002).mapToObj(Integer::toString).toList()), "--"),
                "more than 10000 points");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
