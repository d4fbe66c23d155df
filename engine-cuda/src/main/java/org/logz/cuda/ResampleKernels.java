package org.logz.cuda;

/**
 * Launcher of resample.cu. Scans run as one block; draws, per-particle maps and the copies (a thread per output slot)
 * as grid-stride kernels.
 */
final class ResampleKernels {
    private final CudaDevice device;

    ResampleKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long work, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, work), 1, Launch.BLOCK, 1, 0, args);
    }

    private void single(String kernel, int threads, KernelArgs args) {
        device.launch(kernel, 1, 1, threads, 1, 0, args);
    }

    void weights(long lw, long n, long summary, long e) {
        run("logz_resample_weights", n, KernelArgs.of().ptr(lw).i64(n).ptr(summary).ptr(e));
    }

    void cumulative(long e, long n, long cdf, long chunks, long total) {
        single("logz_chunked_cdf", Launch.BLOCK, KernelArgs.of().ptr(e).i64(n).ptr(cdf).ptr(chunks).ptr(total));
    }

    void multinomial(long cdf, long e, long n, long total, long count, long seed, int step, long out) {
        run("logz_draw_multinomial", count, KernelArgs.of().ptr(cdf).ptr(e).i64(n).ptr(total).i64(count).key(seed).i32(step)
                .ptr(out));
    }

    void systematic(long cdf, long e, long n, long total, long count, long seed, int step, long out) {
        run("logz_draw_systematic", count, KernelArgs.of().ptr(cdf).ptr(e).i64(n).ptr(total).i64(count).key(seed).i32(step)
                .ptr(out));
    }

    void floorCounts(long e, long n, long total, double scale, int minimum, long counts) {
        run("logz_floor_counts", n, KernelArgs.of().ptr(e).i64(n).ptr(total).f64(scale).i32(minimum).ptr(counts));
    }

    void scanCounts(long counts, long n, long offsets, long chunks, long total) {
        single("logz_scan_counts", Launch.BLOCK, KernelArgs.of().ptr(counts).i64(n).ptr(offsets).ptr(chunks).ptr(total));
    }

    void trimCounts(long counts, long n, long excess) {
        single("logz_trim_counts", 1, KernelArgs.of().ptr(counts).i64(n).i64(excess));
    }

    void scatterCopies(long counts, long offsets, long n, long copies, long out) {
        run("logz_scatter_copies", copies, KernelArgs.of().ptr(counts).ptr(offsets).i64(n).i64(copies).ptr(out));
    }

    void residualWeights(long e, long n, long total, int offspring, long counts, long residual) {
        run("logz_residual_weights", n, KernelArgs.of().ptr(e).i64(n).ptr(total).i32(offspring).ptr(counts).ptr(residual));
    }

    void splitScatter(long counts, long offsets, long carried, long n, long copies, long index, long carriedOut) {
        run("logz_split_scatter", copies, KernelArgs.of().ptr(counts).ptr(offsets).ptr(carried).i64(n).i64(copies)
                .ptr(index).ptr(carriedOut));
    }
}
