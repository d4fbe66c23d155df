package org.logz.estimate.checkpoint;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

import org.logz.UserException;
import org.logz.estimate.TracePoint;
import org.logz.io.AtomicFiles;

/**
 * The checkpoint file: {@code LOGZCKPT}, the format number, the {@link AnnealingState}'s fields in order (arrays with
 * their lengths first, big-endian), and a CRC-32 of everything before it. Written atomically (a temporary file
 * renamed over the old one), so a run killed while it saves leaves the previous checkpoint whole.
 */
public final class CheckpointFiles {
    /** The format written; a file of another format is refused. */
    public static final int FORMAT = 1;
    private static final long MAGIC = 0x4C4F475A434B5054L;

    private CheckpointFiles() {
    }

    /** Writes {@code state} to {@code file} atomically. */
    public static void write(Path file, AnnealingState state) {
        AtomicFiles.write(file, stream -> {
            CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(stream), new CRC32());
            DataOutputStream out = new DataOutputStream(checked);
            out.writeLong(MAGIC);
            out.writeInt(FORMAT);
            writeString(out, state.fingerprint());
            out.writeInt(state.nextStep());
            out.writeInt(state.states().length);
            for (float v : state.states()) {
                out.writeFloat(v);
            }
            out.writeInt(state.logW().length);
            for (double v : state.logW()) {
                out.writeDouble(v);
            }
            out.writeInt(state.trace().size());
            for (TracePoint p : state.trace()) {
                out.writeInt(p.step());
                out.writeDouble(p.beta());
                out.writeDouble(p.logRatio());
                out.writeDouble(p.ess());
            }
            out.writeLong(state.transitions());
            out.writeDouble(state.seconds());
            writeString(out, state.start());
            out.writeLong(state.burnIn());
            out.writeDouble(state.visitedBound());
            out.flush();
            new DataOutputStream(stream).writeLong(checked.getChecksum().getValue());
            stream.flush();
        });
    }

    /** The state in {@code file}, or a one-line error: missing, not a checkpoint, another format, damaged. */
    public static AnnealingState read(Path file) {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            CheckedInputStream checked = new CheckedInputStream(raw, new CRC32());
            DataInputStream in = new DataInputStream(checked);
            if (in.readLong() != MAGIC) {
                throw new UserException(file + ": not a logz checkpoint");
            }
            int format = in.readInt();
            if (format != FORMAT) {
                throw new UserException(file + ": checkpoint format " + format + ", this logz reads format " + FORMAT);
            }
            String fingerprint = readString(in, file);
            int nextStep = in.readInt();
            float[] states = new float[length(in, file)];
            for (int i = 0; i < states.length; i++) {
                states[i] = in.readFloat();
            }
            double[] logW = new double[length(in, file)];
            for (int i = 0; i < logW.length; i++) {
                logW[i] = in.readDouble();
            }
            int points = length(in, file);
            List<TracePoint> trace = new ArrayList<>();
            for (int i = 0; i < points; i++) {
                trace.add(new TracePoint(in.readInt(), in.readDouble(), in.readDouble(), in.readDouble()));
            }
            long transitions = in.readLong();
            double seconds = in.readDouble();
            String start = readString(in, file);
            long burnIn = in.readLong();
            double bound = in.readDouble();
            long crc = checked.getChecksum().getValue();
            if (new DataInputStream(raw).readLong() != crc || raw.read() != -1) {
                throw new UserException(file + ": the checkpoint is damaged (its checksum does not match)");
            }
            return new AnnealingState(fingerprint, nextStep, states, logW, trace, transitions, seconds, start, burnIn, bound);
        } catch (NoSuchFileException e) {
            throw new UserException(file + ": no such checkpoint");
        } catch (EOFException e) {
            throw new UserException(file + ": the checkpoint is cut short");
        } catch (IOException e) {
            throw new UserException(file + ": cannot read the checkpoint (" + e.getMessage() + ")");
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in, Path file) throws IOException {
        byte[] bytes = new byte[length(in, file)];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** An array length, refused beyond what the file can hold (a damaged length must not allocate gigabytes). */
    private static int length(DataInputStream in, Path file) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > Files.size(file) / 4) {
            throw new UserException(file + ": the checkpoint is damaged (an array of " + n + " values)");
        }
        return n;
    }
}
