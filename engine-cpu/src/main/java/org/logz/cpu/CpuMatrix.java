package org.logz.cpu;

import java.nio.FloatBuffer;

import org.logz.backend.ParticleMatrix;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Particle states as fixed tiles of {@link #TILE_ROWS} rows, each its own off-heap ND4J array.
 * A tile is the unit of parallel work and of every matrix product, so a row's arithmetic is the same
 * whatever the number of threads or particles: that is what makes results thread-count independent.
 * The last tile is allocated whole; rows past the capacity stay zero.
 */
final class CpuMatrix implements ParticleMatrix {
    /** Rows per tile: large enough for efficient SGEMM, small enough to spread over threads. */
    static final int TILE_ROWS = 64;

    private final CpuBackend owner;
    private final int rows;
    private final int cols;
    private final INDArray[] tiles;
    private final FloatBuffer[] buffers;
    private boolean closed;

    CpuMatrix(CpuBackend owner, int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("a particle matrix needs positive dimensions, got " + rows + "×" + cols);
        }
        this.owner = owner;
        this.rows = rows;
        this.cols = cols;
        int count = tileCount(rows);
        this.tiles = new INDArray[count];
        this.buffers = new FloatBuffer[count];
        for (int t = 0; t < count; t++) {
            tiles[t] = Nd4j.zeros(DataType.FLOAT, TILE_ROWS, cols);
            buffers[t] = tiles[t].data().asNioFloat();
        }
    }

    static int tileCount(int rows) {
        return (rows + TILE_ROWS - 1) / TILE_ROWS;
    }


    CpuBackend owner() {
        return owner;
    }

    INDArray tile(int t) {
        checkOpen();
        return tiles[t];
    }

    /** Direct view of tile {@code t}: element (r, c) is at {@code r * cols + c}. */
    FloatBuffer buffer(int t) {
        checkOpen();
        return buffers[t];
    }

    void checkRows(int count) {
        checkRows(0, count);
    }

    void checkRows(int first, int count) {
        checkOpen();
        if (first < 0 || count < 0 || (long) first + count > rows) {
            throw new IllegalArgumentException("rows [" + first + ", " + ((long) first + count) + ") outside a matrix of "
                    + rows + " rows");
        }
    }

    float get(int row, int col) {
        checkOpen();
        return buffers[row / TILE_ROWS].get((row % TILE_ROWS) * cols + col);
    }

    void set(int row, int col, float value) {
        checkOpen();
        buffers[row / TILE_ROWS].put((row % TILE_ROWS) * cols + col, value);
    }

    /** Copies row {@code row} into {@code out[offset, offset + cols)}. */
    void readRow(int row, float[] out, int offset) {
        buffer(row / TILE_ROWS).get((row % TILE_ROWS) * cols, out, offset, cols);
    }

    /** Overwrites row {@code row} from {@code in[offset, offset + cols)}. */
    void writeRow(int row, float[] in, int offset) {
        buffer(row / TILE_ROWS).put((row % TILE_ROWS) * cols, in, offset, cols);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("particle matrix is closed");
        }
    }

    @Override
    public int rows() {
        checkOpen();
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (INDArray tile : tiles) {
            tile.close();
        }
    }
}
