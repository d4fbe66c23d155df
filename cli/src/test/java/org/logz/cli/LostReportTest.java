package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** A report that cannot reach standard output is no success (issue 37, R1: it used to exit 0 with the result gone). */
@Isolated // a JVM of its own, given 60 s to end
class LostReportTest {
    /** An output that refuses every write with {@code reason}, as a full disk or a closed pipe does. */
    private static OutputStream refusing(String reason) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException(reason);
            }
        };
    }

    private static int exitCode(String reason, StringWriter err) {
        StandardOutput stdout = new StandardOutput(refusing(reason));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true);
        out.println("{\"logZ\": 65.08}");
        return stdout.exitCode(0, out, new PrintWriter(err));
    }

    @Test
    void aFullDiskFailsTheRunWithTheReason() {
        StringWriter err = new StringWriter();
        assertEquals(Main.FAILURE, exitCode("No space left on device", err));
        assertEquals("logz: the report could not be written to standard output (No space left on device); it is lost",
                err.toString().strip());
    }

    @Test
    void aClosedPipeEndsSilentlyAsSigpipeWould() {
        StringWriter err = new StringWriter();
        assertEquals(StandardOutput.BROKEN_PIPE, exitCode("Broken pipe", err));
        assertEquals("", err.toString());
    }

    @Test
    void aWrittenReportKeepsTheCommandsExitCode() {
        StandardOutput stdout = new StandardOutput(OutputStream.nullOutputStream());
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true);
        out.println("report");
        assertEquals(3, stdout.exitCode(3, out, new PrintWriter(new StringWriter())));
    }

    /** The whole command, its report sent to /dev/full (Linux): exit 1 and the reason, not exit 0 and silence. */
    @Test
    void logzExactIntoAFullDeviceExitsOne() throws Exception {
        File full = new File("/dev/full");
        assumeTrue(full.exists(), "no /dev/full on this system");
        Path err = File.createTempFile("logz-err", ".txt").toPath();
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "exact", "--model", "ising:L=4"))
                .redirectOutput(full).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "logz exact did not end");
        String message = Files.readString(err);
        assertEquals(Main.FAILURE, p.exitValue(), message);
        assertTrue(message.contains("could not be written to standard output"), message);
    }
}
