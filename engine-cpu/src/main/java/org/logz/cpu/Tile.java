package org.logz.cpu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Locale;

import org.logz.base.UserException;
import org.logz.memory.HostMemory;
import org.logz.memory.InsufficientMemoryException;

/**
 * One block of rows of float32 values off the heap: the Java path reads and writes {@link #buffer}, the native kernels
 * its {@link #address}. Element (r, c) is at {@code r·cols + c}. Where the native library is loaded the memory is its
 * own ({@link CpuNative#allocate}: zeroed, aligned, freed at {@link #close}, outside the JVM's direct-memory limit);
 * elsewhere a direct buffer of the JVM, counted against {@code -XX:MaxDirectMemorySize} and freed by the collector.
 */
final class Tile {
    /** The most bytes one tile holds: a direct buffer's capacity is an int. */
    static final long MAX_BYTES = Integer.MAX_VALUE;

    final int cols;
    final FloatBuffer buffer;
    final long address;
    private final ByteBuffer memory;
    private final boolean nativeMemory;
    private boolean closed;

    /** Tiles from this size on are checked against the machine's memory before they are allocated. */
    private static final long CHECKED_BYTES = 1L << 26;

    Tile(int rows, int cols) {
        requireShape(rows, cols, "the particle matrices");
        long bytes = 4L * rows * cols;
        // checked here, where a tile of a wide model is allocated: a run's footprint counts particles, not tiles; small
        // tiles (every trained model's) skip the read of /proc/meminfo
        long available = bytes < CHECKED_BYTES ? Long.MAX_VALUE : HostMemory.machineAvailable();
        if (bytes > available) {
            throw refused(rows, cols, bytes, available);
        }
        this.cols = cols;
        this.nativeMemory = CpuNative.loadError().isEmpty();
        this.memory = nativeMemory ? CpuNative.allocate((int) bytes) : direct(rows, cols, (int) bytes);
        if (memory == null) {
            throw refused(rows, cols, bytes, HostMemory.machineAvailable());
        }
        this.buffer = memory.order(ByteOrder.nativeOrder()).asFloatBuffer();
        this.address = nativeMemory ? CpuNative.address(memory) : 0;
    }

    /**
     * Refuses {@code what}, a matrix of {@code rows} × {@code cols} values, whose tiles ({@link CpuMatrix#TILE_ROWS} rows
     * at most) would exceed {@link #MAX_BYTES}, naming how many rows fit.
     */
    static void requireShape(int rows, int cols, String what) {
        long tileRows = Math.min(rows, CpuMatrix.TILE_ROWS);
        if (4L * tileRows * cols <= MAX_BYTES) {
            return;
        }
        long fit = MAX_BYTES / (4L * cols);
        throw new UserException(String.format(Locale.ROOT, "%s needs tiles of %d rows × %d values (%s each), beyond the "
                + "2 GiB one buffer of the cpu backend holds; %s", what, tileRows, cols,
                HostMemory.format(4L * tileRows * cols), fit == 0 ? "no row of " + cols + " values fits: use a model with "
                + "at most " + MAX_BYTES / 4 + " units in a layer" : "at most " + fit + " chains or particles fit, or a "
                + "model with at most " + MAX_BYTES / (4L * CpuMatrix.TILE_ROWS) + " units in a layer runs any number"));
    }

    /** A JVM direct buffer (zeroed), for the Java path where the native library is not built. */
    private static ByteBuffer direct(int rows, int cols, int bytes) {
        try {
            return ByteBuffer.allocateDirect(bytes);
        } catch (OutOfMemoryError e) {
            throw new UserException("the Java path's particle tiles (native kernels not built) used up the JVM's direct "
                    + "memory (-XX:MaxDirectMemorySize, by default the heap's maximum) at a tile of " + rows + " rows × "
                    + cols + " values; raise it with LOGZ_JAVA_OPTS=-XX:MaxDirectMemorySize=<size>, or ask for fewer "
                    + "chains");
        }
    }

    private static InsufficientMemoryException refused(int rows, int cols, long bytes, long available) {
        return new InsufficientMemoryException("a tile of " + rows + " particle rows × " + cols + " values", bytes,
                available, "the machine (off-heap particle matrices)", "use a smaller model");
    }

    /** The address of row r. */
    long row(int r) {
        return address + 4L * r * cols;
    }

    /** Frees native memory once; a JVM buffer is left to the collector. */
    void close() {
        if (!closed && nativeMemory) {
            CpuNative.release(memory);
        }
        closed = true;
    }
}
