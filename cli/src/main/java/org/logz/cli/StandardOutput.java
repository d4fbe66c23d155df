package org.logz.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * Standard output that remembers why a write failed. {@link java.io.PrintStream} and {@link PrintWriter} swallow write
 * errors, so a report lost to a full disk or a closed pipe used to end in exit 0 with nothing said (issue 37, R1): a
 * script would believe it had its number. {@link #exitCode} turns a lost report into exit 1 with one line on stderr,
 * or, for a reader that closed the pipe ({@code logz estimate | head -1}), into the silent exit of a process that
 * SIGPIPE ends.
 */
final class StandardOutput extends FilterOutputStream {
    /** A shell's exit code for a process ended by SIGPIPE (128 + 13), what a closed pipe conventionally gives. */
    static final int BROKEN_PIPE = 141;

    private IOException failure;

    StandardOutput(OutputStream out) {
        super(out);
    }

    /** The JVM's standard output. */
    static StandardOutput open() {
        return new StandardOutput(new FileOutputStream(FileDescriptor.out));
    }

    /** The encoding the JVM gives {@code System.out} (JDK 17: {@code sun.stdout.encoding} on a console, else the default). */
    static Charset charset() {
        String console = System.getProperty("sun.stdout.encoding");
        return console == null ? Charset.defaultCharset() : Charset.forName(console);
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private IOException failed(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /**
     * The exit code of a command that ended with {@code code} and wrote its report to {@code out} (over this stream):
     * {@code code} when every byte was written; {@link #BROKEN_PIPE}, silently, when the reader closed the pipe; else
     * {@link Main#FAILURE} with the reason on {@code err}.
     */
    int exitCode(int code, PrintWriter out, PrintWriter err) {
        if (!out.checkError() && failure == null) {
            return code;
        }
        String reason = failure == null ? "a write failed" : String.valueOf(failure.getMessage());
        if (reason.contains("Broken pipe")) {
            return BROKEN_PIPE;
        }
        err.println("logz: the report could not be written to standard output (" + reason + "); it is lost");
        err.flush();
        return Main.FAILURE;
    }
}
