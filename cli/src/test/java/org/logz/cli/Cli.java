package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Runs the {@code logz} command in-process and checks what the CLI tests check on every outcome. */
public final class Cli {
    private Cli() {
    }

    /** Exit code and both streams of one run. */
    public record Outcome(int code, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    public static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    /**
     * {@code logz estimate --model MODEL RUN... --json --seed=SEED}, which must exit 0; its JSON report, whose estimate
     * must lie within max(4·SE, absolute) of the exact log Z the report compares with.
     */
    public static JsonNode estimateNearExact(String model, long seed, double absolute, String... run)
            throws IOException {
        String[] args = new String[run.length + 5];
        args[0] = "estimate";
        args[1] = "--model";
        args[2] = model;
        System.arraycopy(run, 0, args, 3, run.length);
        args[run.length + 3] = "--json";
        args[run.length + 4] = "--seed=" + seed;
        Outcome o = run(args);
        assertEquals(0, o.code(), String.join(" ", run) + ": " + o.err());
        JsonNode j = o.json();
        assertTrue(Math.abs(j.get("error").asDouble()) <= Math.max(4 * j.get("stderr").asDouble(), absolute),
                String.join(" ", run) + ": " + o.out());
        return j;
    }

    /** A user error: exit code 2 and one line on stderr, starting with {@code logz: }, naming {@code fragment}. */
    public static void assertUserError(Outcome o, String fragment) {
        assertEquals(2, o.code(), "exit code; stderr: " + o.err());
        assertEquals(1, o.err().strip().lines().count(), "one line on stderr: " + o.err());
        assertTrue(o.err().startsWith("logz: "), o.err());
        assertTrue(o.err().contains(fragment), "'" + o.err().strip() + "' lacks '" + fragment + "'");
        assertFalse(o.err().contains("\tat "), "no stack trace");
    }
}
