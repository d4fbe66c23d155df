package org.logz.cuda;

/** Launcher of particles.cu: fills, gathers, column clearing, vector arithmetic, random indices, bound checks. */
final class ParticleKernels {
    private final CudaDevice device;

    ParticleKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long work, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, work), 1, Launch.BLOCK, 1, 0, args);
    }

    void fill(long v, long n, double value) {
        run("logz_fill_f64", n, KernelArgs.of().ptr(v).i64(n).f64(value));
    }

    void axpy(double a, long x, long y, long n) {
        run("logz_axpy_f64", n, KernelArgs.of().f64(a).ptr(x).ptr(y).i64(n));
    }

    void scale(long v, long n, double s) {
        run("logz_scale_f64", n, KernelArgs.of().ptr(v).i64(n).f64(s));
    }

    void sequence(long v, long n, int start) {
        run("logz_sequence_i32", n, KernelArgs.of().ptr(v).i64(n).i32(start));
    }

    void gatherRows(long src, int cols, long index, long count, long dst) {
        run("logz_gather_rows_f32", count * cols, KernelArgs.of().ptr(src).i32(cols).ptr(index).i64(count).ptr(dst));
    }

    void gatherDoubles(long src, long index, long count, long dst) {
        run("logz_gather_f64", count, KernelArgs.of().ptr(src).ptr(index).i64(count).ptr(dst));
    }

    void gatherInts(long src, long index, long count, long dst) {
        run("logz_gather_i32", count, KernelArgs.of().ptr(src).ptr(index).i64(count).ptr(dst));
    }

    void zeroColumns(long m, int cols, long rows, int from) {
        run("logz_zero_columns_f32", rows * (cols - from), KernelArgs.of().ptr(m).i32(cols).i64(rows).i32(from));
    }

    void broadcastRows(long m, int cols, long rows, long row) {
        run("logz_broadcast_rows_f32", rows * cols, KernelArgs.of().ptr(m).i32(cols).i64(rows).ptr(row));
    }

    void randomIndices(long out, long count, int bound, long seed, int step) {
        run("logz_random_indices", count, KernelArgs.of().ptr(out).i64(count).i32(bound).key(seed).i32(step));
    }

    void checkIndices(long index, long count, int bound, long flag) {
        run("logz_check_indices", count, KernelArgs.of().ptr(index).i64(count).i32(bound).ptr(flag));
    }
}
