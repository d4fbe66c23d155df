package org.logz.cuda;

import org.logz.backend.ParticleMatrix;

/** Row-major float32 particle states on the device. */
final class CudaMatrix extends CudaBuffer implements ParticleMatrix {
    private final int rows;
    private final int cols;

    CudaMatrix(CudaBackend owner, int rows, int cols) {
        super(owner, checked(rows, cols));
        this.rows = rows;
        this.cols = cols;
    }

    private static long checked(int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("a particle matrix needs positive dimensions, got " + rows + "×" + cols);
        }
        return 4L * rows * cols;
    }

    /** Address of row {@code row}. */
    long row(int row) {
        return address() + 4L * row * cols;
    }

    void checkRows(int first, int count) {
        address();
        if (first < 0 || count < 0 || (long) first + count > rows) {
            throw new IllegalArgumentException("rows [" + first + ", " + ((long) first + count) + ") outside a matrix of "
                    + rows + " rows");
        }
    }

    @Override
    public int rows() {
        address();
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }
}
