package org.logz.cpu;

import java.nio.FloatBuffer;

import org.logz.memory.HostMemory;
import org.logz.memory.InsufficientMemoryException;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One block of rows of float32 values off the heap, in an ND4J array: the Java path reads and writes {@link #buffer},
 * the native kernels its {@link #address}. Element (r, c) is at {@code r·cols + c}.
 */
final class Tile {
    final int cols;
    final FloatBuffer buffer;
    final long address;
    private final INDArray array;

    /** Tiles from this size on are checked against the machine's memory before they are allocated. */
    private static final long CHECKED_BYTES = 1L << 26;

    Tile(int rows, int cols) {
        // checked here, where a tile of a wide model is allocated: a run's footprint counts particles, not tiles; small
        // tiles (every trained model's) skip the read of /proc/meminfo
        long bytes = 4L * rows * cols;
        long available = bytes < CHECKED_BYTES ? Long.MAX_VALUE : HostMemory.machineAvailable();
        if (bytes > available) {
            throw new InsufficientMemoryException("a tile of " + rows + " particle rows × " + cols + " values", bytes,
                    available, "the machine (off-heap particle matrices)", "use a smaller model");
        }
        this.cols = cols;
        this.array = Nd4j.zeros(DataType.FLOAT, rows, cols);
        this.buffer = array.data().asNioFloat();
        this.address = array.data().address();
    }

    /** The address of row r. */
    long row(int r) {
        return address + 4L * r * cols;
    }

    void close() {
        array.close();
    }
}
