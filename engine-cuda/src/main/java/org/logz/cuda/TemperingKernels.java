package org.logz.cuda;

import org.logz.backend.TemperingSteps;

/** Launcher of tempering.cu: one thread per chain, per (group, level, chunk), per (group, level), or per (chain, level); grid-stride. */
final class TemperingKernels {
    private final CudaDevice device;

    TemperingKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long work, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, work), 1, Launch.BLOCK, 1, 0, args);
    }

    void draw(long logF, long weight, long count, int levels, long levelBetas, long seed, int step, long q, long next,
              long betas) {
        run("logz_temper_draw", count, KernelArgs.of().ptr(logF).ptr(weight).i64(count).i32(levels).ptr(levelBetas)
                .key(seed).i32(step).ptr(q).ptr(next).ptr(betas));
    }

    /** Chunks per group of {@code TemperingSteps.CHUNK} members, for {@link #accumulate}'s scratch. */
    static long chunks(long count, int groups) {
        long members = (count + groups - 1) / groups;
        return (members + TemperingSteps.CHUNK - 1) / TemperingSteps.CHUNK;
    }

    /** {@code partial} holds {@code 4 · groups · levels · chunks(count, groups)} doubles of scratch. */
    void accumulate(long q, long slope, long level, long count, int levels, int groups, long partial, long statistics) {
        long chunks = chunks(count, groups);
        run("logz_temper_chunks", (long) groups * levels * chunks, KernelArgs.of().ptr(q).ptr(slope).ptr(level).i64(count)
                .i32(levels).i32(groups).i64(chunks).ptr(partial));
        run("logz_temper_accumulate", (long) groups * levels, KernelArgs.of().ptr(partial).i64(chunks).i32(levels)
                .i32(groups).ptr(statistics));
    }

    void linearLevels(long values, long count, long levelBetas, int levels, long logF, long slope) {
        run("logz_linear_levels", count * levels, KernelArgs.of().ptr(values).i64(count).ptr(levelBetas).i32(levels)
                .ptr(logF).ptr(slope));
    }
}
