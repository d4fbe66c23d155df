package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.logz.cli.Main;

/**
 * {@code logz bench spark}: one row per way, each with its time, rate and ratio to the one process, the ways
 * checked for the same bits (a difference fails the command); output options are refused.
 */
class SparkBenchTest {
    private static final Pattern ROW = Pattern.compile("\\| (.+?) \\| (\\d+\\.\\d+) \\| (\\d+\\.\\d+) \\| (\\d+\\.\\d+) \\|");

    @Test
    void timesOneProcessAndEveryLocalMaster() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"bench", "spark", "--executors", "1,2", "--", "--chains", "70", "--steps", "30",
            "--replicates", "2", "--backend", "cpu"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        String[] lines = out.toString().strip().split("\n");
        assertEquals(5, lines.length, out.toString());
        assertTrue(lines[2].startsWith("| one process") && lines[2].endsWith("| 1.00 |"), lines[2]);
        String[] ways = {"one process", "spark local[1], 1 task", "spark local[2], 2 tasks"};
        for (int i = 0; i < ways.length; i++) {
            Matcher row = ROW.matcher(lines[i + 2]);
            assertTrue(row.matches(), lines[i + 2]);
            assertTrue(row.group(1).startsWith(ways[i]), lines[i + 2]);
            assertTrue(Double.parseDouble(row.group(3)) > 0, lines[i + 2]);
        }
    }

    @Test
    void outputOptionsAreRefused() {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"bench", "spark", "--", "--replicates", "2", "--work", "w.txt"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("drop --work"), err.toString());
    }
}
