package org.logz.cpu;

import java.nio.FloatBuffer;
import java.util.concurrent.atomic.AtomicLongArray;

import org.logz.backend.ParticleMatrix;

/**
 * Particle states as fixed tiles of {@link #TILE_ROWS} rows, each its own off-heap block ({@link Tile}).
 * Tiles, or pieces of them ({@link CpuBackend#partition}), are the units of parallel work; a row's arithmetic never
 * depends on the other rows (the RBM kernels' products have a fixed order of multiply-adds per output), so results do
 * not depend on the number of threads or particles.
 * The last tile holds only the rows left ({@code rows - t·TILE_ROWS}): two chains of a model with 30,000,000 hidden
 * units are two rows, not 64 (7.7 GB a tile).
 *
 * <p>Every tile counts its writes ({@link #version}): each accessor that can write bumps it, so a kernel that keeps
 * a product of a tile can tell whether the tile changed since (the RBM kernel's product cache, DESIGN §4).
 */
final class CpuMatrix implements ParticleMatrix {
    /** Rows per tile: large enough for efficient SGEMM, small enough to spread over threads. */
    static final int TILE_ROWS = 64;

    private final CpuBackend owner;
    private final int rows;
    private final int cols;
    private final Tile[] tiles;
    private final AtomicLongArray versions;
    private boolean closed;

    CpuMatrix(CpuBackend owner, int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("a particle matrix needs positive dimensions, got " + rows + "×" + cols);
        }
        this.owner = owner;
        this.rows = rows;
        this.cols = cols;
        int count = tileCount(rows);
        this.tiles = new Tile[count];
        this.versions = new AtomicLongArray(count);
        for (int t = 0; t < count; t++) {
            tiles[t] = new Tile(rowsOf(rows, t), cols);
        }
    }

    static int tileCount(int rows) {
        return (rows + TILE_ROWS - 1) / TILE_ROWS;
    }

    /** The rows of tile {@code t} of a matrix of {@code rows}: {@link #TILE_ROWS}, fewer in the last tile. */
    static int rowsOf(int rows, int t) {
        return Math.min(TILE_ROWS, rows - t * TILE_ROWS);
    }


    CpuBackend owner() {
        return owner;
    }

    /** Tile {@code t} for reading and writing (counts as a write). */
    Tile tile(int t) {
        checkOpen();
        versions.incrementAndGet(t);
        return tiles[t];
    }

    /** Tile {@code t} for reading only. */
    Tile readTile(int t) {
        checkOpen();
        return tiles[t];
    }

    /** Direct view of tile {@code t} for reading and writing (counts as a write): element (r, c) at {@code r·cols + c}. */
    FloatBuffer buffer(int t) {
        return tile(t).buffer;
    }

    /** Direct view of tile {@code t} for reading only. */
    FloatBuffer readBuffer(int t) {
        return readTile(t).buffer;
    }

    /** How many times tile {@code t} was handed out for writing. */
    long version(int t) {
        return versions.get(t);
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
        return readBuffer(row / TILE_ROWS).get((row % TILE_ROWS) * cols + col);
    }

    void set(int row, int col, float value) {
        buffer(row / TILE_ROWS).put((row % TILE_ROWS) * cols + col, value);
    }

    /** Copies row {@code row} into {@code out[offset, offset + cols)}. */
    void readRow(int row, float[] out, int offset) {
        readBuffer(row / TILE_ROWS).get((row % TILE_ROWS) * cols, out, offset, cols);
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
        for (Tile tile : tiles) {
            tile.close();
        }
    }
}
