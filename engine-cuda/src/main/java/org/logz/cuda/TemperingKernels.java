package org.logz.cuda;

import org.logz.backend.TemperingSteps;

/** Launcher of tempering.cu: one thread per chain, per (block, group, level), or per (chain, level); grid-stride. */
final class TemperingKernels {
    private final CudaDevice device;

    TemperingKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long work, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, work), 1, Launch.BLOCK, 1, 0, args);
    }

    void draw(long logF, long weight, long count, int levels, long levelBetas, long first, long seed, int step, long q,
              long next, long betas) {
        run("logz_temper_draw", count, KernelArgs.of().ptr(logF).ptr(weight).i64(count).i32(levels).ptr(levelBetas)
                .i64(first).key(seed).i32(step).ptr(q).ptr(next).ptr(betas));
    }

    /** Adds each (block, group, level)'s sums to {@code statistics} ({@code TemperingSteps.statisticsLength} doubles). */
    void accumulate(long q, long slope, long level, long count, int levels, int groups, long statistics) {
        long blocks = TemperingSteps.blocks((int) count, groups);
        run("logz_temper_blocks", blocks * groups * levels, KernelArgs.of().ptr(q).ptr(slope).ptr(level).i64(count)
                .i32(levels).i32(groups).i32(TemperingSteps.BLOCK_MEMBERS).i64(blocks).ptr(statistics));
    }

    void linearLevels(long values, long count, long levelBetas, int levels, long logF, long slope) {
        run("logz_linear_levels", count * levels, KernelArgs.of().ptr(values).i64(count).ptr(levelBetas).i32(levels)
                .ptr(logF).ptr(slope));
    }
}
