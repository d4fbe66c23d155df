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
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

import org.logz.base.UserException;
import org.logz.estimate.TracePoint;
import org.logz.estimate.smc.SmcTracePoint;
import org.logz.io.AtomicFiles;

/**
 * The checkpoint files: a magic number naming the kind of run ({@code LOGZCKPT} an annealing run's
 * {@link AnnealingState}, {@code LOGZCKBD} a forward and reverse run's {@link BidirectionalState}, {@code LOGZCKRT} a
 * tempered sampling run's {@link TemperedState}, {@code LOGZCKSM} an SMC sampler run's {@link SmcState}), the format
 * number, the
 * state's fields in order (arrays with their lengths first, big-endian), and a CRC-32 of everything before it. Written
 * atomically (a temporary file forced to disk and renamed over the old one), so a run killed while it saves leaves the
 * previous checkpoint whole.
 */
public final class CheckpointFiles {
    /** The format written; a file of another format is refused. */
    public static final int FORMAT = 4;
    private static final long ANNEALING = 0x4C4F475A434B5054L;
    private static final long TEMPERED = 0x4C4F475A434B5254L;
    private static final long BIDIRECTIONAL = 0x4C4F475A434B4244L;
    private static final long SMC = 0x4C4F475A434B534DL;

    private CheckpointFiles() {
    }

    /** The fields of one kind of state. */
    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads the fields of one kind of state. */
    private interface Reading<T> {
        T read(DataInputStream in) throws IOException;
    }

    /** Writes {@code state} to {@code file} atomically. */
    public static void write(Path file, AnnealingState state) {
        write(file, ANNEALING, out -> writeAnnealing(out, state));
    }

    /** Writes {@code state} to {@code file} atomically. */
    public static void write(Path file, BidirectionalState state) {
        write(file, BIDIRECTIONAL, out -> {
            writeAnnealing(out, state.forward());
            out.writeBoolean(state.reverse().isPresent());
            if (state.reverse().isPresent()) {
                writeAnnealing(out, state.reverse().get());
            }
        });
    }

    private static void writeAnnealing(DataOutputStream out, AnnealingState state) throws IOException {
        writeString(out, state.fingerprint());
        out.writeInt(state.nextStep());
        writeFloats(out, state.states());
        writeDoubles(out, state.logW());
        out.writeInt(state.trace().size());
        for (TracePoint p : state.trace()) {
            out.writeInt(p.step());
            out.writeDouble(p.beta());
            out.writeDouble(p.logRatio());
            out.writeDouble(p.ess());
            out.writeDouble(p.energy());
            out.writeDouble(p.energyStdErr());
        }
        out.writeLong(state.transitions());
        out.writeDouble(state.seconds());
        writeString(out, state.start());
        out.writeLong(state.burnIn());
        out.writeDouble(state.visitedBound());
    }

    /** Writes {@code state} to {@code file} atomically. */
    public static void write(Path file, SmcState state) {
        write(file, SMC, out -> {
            writeString(out, state.fingerprint());
            out.writeInt(state.nextStep());
            out.writeDouble(state.beta());
            writeFloats(out, state.states());
            writeDoubles(out, state.logW());
            out.writeDouble(state.resampledLogZ());
            out.writeInt(state.trace().size());
            for (SmcTracePoint p : state.trace()) {
                out.writeInt(p.step());
                out.writeDouble(p.beta());
                out.writeDouble(p.ess());
                out.writeDouble(p.conditionalEss());
                out.writeBoolean(p.resampled());
                out.writeDouble(p.logZ());
                out.writeDouble(p.slopeMean());
                out.writeDouble(p.slopeVariance());
            }
            writeDoubles(out, state.slopeChange());
            out.writeInt(state.resamplings());
            out.writeLong(state.transitions());
            writeInts(out, state.eve());
            out.writeDouble(state.seconds());
        });
    }

    /** The SMC sampler state in {@code file}, or a one-line error as for {@link #readAnnealing}. */
    public static SmcState readSmc(Path file) {
        return read(file, SMC, in -> {
            String fingerprint = readString(in, file);
            int nextStep = in.readInt();
            double beta = in.readDouble();
            float[] states = readFloats(in, file);
            double[] logW = readDoubles(in, file);
            double resampledLogZ = in.readDouble();
            int points = length(in, file);
            List<SmcTracePoint> trace = new ArrayList<>();
            for (int i = 0; i < points; i++) {
                trace.add(new SmcTracePoint(in.readInt(), in.readDouble(), in.readDouble(), in.readDouble(),
                        in.readBoolean(), in.readDouble(), in.readDouble(), in.readDouble()));
            }
            double[] slopeChange = readDoubles(in, file);
            int resamplings = in.readInt();
            long transitions = in.readLong();
            int[] eve = readInts(in, file);
            double seconds = in.readDouble();
            return new SmcState(fingerprint, nextStep, beta, states, logW, resampledLogZ, trace, slopeChange, resamplings,
                    transitions, eve, seconds);
        });
    }

    /** Writes {@code state} to {@code file} atomically. */
    public static void write(Path file, TemperedState state) {
        write(file, TEMPERED, out -> {
            writeString(out, state.fingerprint());
            writeDoubles(out, state.initialLogZ());
            writeDoubles(out, state.logZHat());
            out.writeInt(state.rounds());
            out.writeBoolean(state.converged());
            out.writeDouble(state.deviation());
            out.writeLong(state.done());
            out.writeLong(state.transferredBytes());
            out.writeDouble(state.seconds());
            writeFloats(out, state.states());
            writeInts(out, state.levels());
            out.writeInt(state.step());
            out.writeInt(state.finalStretches());
            writeDoubles(out, state.statistics());
            out.writeInt(state.keptLogF().size());
            for (int i = 0; i < state.keptLogF().size(); i++) {
                writeDoubles(out, state.keptLogF().get(i));
                writeInts(out, state.keptLevels().get(i));
            }
        });
    }

    /** The annealing state in {@code file}, or a one-line error: missing, not a checkpoint, another format, damaged. */
    public static AnnealingState readAnnealing(Path file) {
        return read(file, ANNEALING, in -> readAnnealing(in, file));
    }

    /** The forward and reverse state in {@code file}, or a one-line error as for {@link #readAnnealing}. */
    public static BidirectionalState readBidirectional(Path file) {
        return read(file, BIDIRECTIONAL, in -> {
            AnnealingState forward = readAnnealing(in, file);
            return new BidirectionalState(forward, in.readBoolean() ? Optional.of(readAnnealing(in, file)) : Optional.empty());
        });
    }

    private static AnnealingState readAnnealing(DataInputStream in, Path file) throws IOException {
        String fingerprint = readString(in, file);
        int nextStep = in.readInt();
        float[] states = readFloats(in, file);
        double[] logW = readDoubles(in, file);
        int points = length(in, file);
        List<TracePoint> trace = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            trace.add(new TracePoint(in.readInt(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(),
                    in.readDouble()));
        }
        long transitions = in.readLong();
        double seconds = in.readDouble();
        String start = readString(in, file);
        long burnIn = in.readLong();
        double bound = in.readDouble();
        return new AnnealingState(fingerprint, nextStep, states, logW, trace, transitions, seconds, start, burnIn, bound);
    }

    /** The tempered sampling state in {@code file}, or a one-line error as for {@link #readAnnealing}. */
    public static TemperedState readTempered(Path file) {
        return read(file, TEMPERED, in -> {
            String fingerprint = readString(in, file);
            double[] initialLogZ = readDoubles(in, file);
            double[] logZHat = readDoubles(in, file);
            int rounds = in.readInt();
            boolean converged = in.readBoolean();
            double deviation = in.readDouble();
            long done = in.readLong();
            long bytes = in.readLong();
            double seconds = in.readDouble();
            float[] states = readFloats(in, file);
            int[] levels = readInts(in, file);
            int step = in.readInt();
            int stretches = in.readInt();
            double[] statistics = readDoubles(in, file);
            int kept = length(in, file);
            List<double[]> keptLogF = new ArrayList<>();
            List<int[]> keptLevels = new ArrayList<>();
            for (int i = 0; i < kept; i++) {
                keptLogF.add(readDoubles(in, file));
                keptLevels.add(readInts(in, file));
            }
            return new TemperedState(fingerprint, initialLogZ, logZHat, rounds, converged, deviation, done, bytes,
                    seconds, states, levels, step, stretches, statistics, keptLogF, keptLevels);
        });
    }

    private static void write(Path file, long magic, Body body) {
        AtomicFiles.write(file, stream -> {
            CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(stream), new CRC32());
            DataOutputStream out = new DataOutputStream(checked);
            out.writeLong(magic);
            out.writeInt(FORMAT);
            body.write(out);
            out.flush();
            new DataOutputStream(stream).writeLong(checked.getChecksum().getValue());
            stream.flush();
        });
    }

    private static <T> T read(Path file, long magic, Reading<T> body) {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            CheckedInputStream checked = new CheckedInputStream(raw, new CRC32());
            DataInputStream in = new DataInputStream(checked);
            long kind = in.readLong();
            if (kind != magic) {
                throw new UserException(file + (kindName(kind) == null ? ": not a logz checkpoint"
                        : ": the checkpoint of " + kindName(kind) + " cannot resume " + kindName(magic)));
            }
            int format = in.readInt();
            if (format != FORMAT) {
                // formats count up from 1: anything beyond a few above this one is a damaged header, not a newer logz
                throw new UserException(file + (format > 0 && format <= FORMAT + 16 ? ": checkpoint format " + format
                        + ", this logz reads format " + FORMAT : ": the checkpoint is damaged (its header names format "
                        + format + "; this logz writes format " + FORMAT + ")"));
            }
            T state = body.read(in);
            long crc = checked.getChecksum().getValue();
            if (new DataInputStream(raw).readLong() != crc || raw.read() != -1) {
                throw new UserException(file + ": the checkpoint is damaged (its checksum does not match)");
            }
            return state;
        } catch (NoSuchFileException e) {
            throw new UserException(file + ": no such checkpoint");
        } catch (EOFException e) {
            throw new UserException(file + ": the checkpoint is cut short");
        } catch (IOException e) {
            throw new UserException(file + ": cannot read the checkpoint (" + e.getMessage() + ")");
        }
    }

    /** The runs a kind of checkpoint belongs to, or null for no logz kind. */
    private static String kindName(long kind) {
        if (kind == ANNEALING) {
            return "an annealing run (ais, raise)";
        }
        if (kind == BIDIRECTIONAL) {
            return "a forward and reverse annealing run (bar, cumulant, histogram)";
        }
        if (kind == SMC) {
            return "an SMC sampler run (smc, power-posterior, power-posterior-corrected)";
        }
        return kind == TEMPERED ? "a tempered sampling run (rts, ti, ti-rb, mbar)" : null;
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

    private static void writeFloats(DataOutputStream out, float[] values) throws IOException {
        out.writeInt(values.length);
        for (float v : values) {
            out.writeFloat(v);
        }
    }

    /** The chains' states: finite in every model, so a value that is not is a file written by something else. */
    private static float[] readFloats(DataInputStream in, Path file) throws IOException {
        float[] values = new float[length(in, file)];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readFloat();
            if (!Float.isFinite(values[i])) {
                throw new UserException(file + ": the checkpoint is damaged (a chain's state " + values[i] + ")");
            }
        }
        return values;
    }

    private static void writeDoubles(DataOutputStream out, double[] values) throws IOException {
        out.writeInt(values.length);
        for (double v : values) {
            out.writeDouble(v);
        }
    }

    private static double[] readDoubles(DataInputStream in, Path file) throws IOException {
        double[] values = new double[length(in, file)];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readDouble();
        }
        return values;
    }

    private static void writeInts(DataOutputStream out, int[] values) throws IOException {
        out.writeInt(values.length);
        for (int v : values) {
            out.writeInt(v);
        }
    }

    private static int[] readInts(DataInputStream in, Path file) throws IOException {
        int[] values = new int[length(in, file)];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readInt();
        }
        return values;
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
