package org.logz.random;

/**
 * Standard normals of one (particle, step) on one stream tag: normal q is Box-Muller on block
 * {@code (q/2, particle, step, tag)}, {@code √(-2 log u₁) cos(2π u₂)} for even q and {@code ... sin(2π u₂)} for
 * odd q, u₁ and u₂ the 53-bit uniforms of words 0-1 and 2-3 (as {@code logz_stream_normal} in philox.cuh). Reads
 * in increasing q reuse each block once. Not thread-safe: one per worker.
 */
public final class NormalStream {
    private final long seed;
    private final int particle;
    private final int step;
    private final int tag;
    private final int[] words = new int[4];
    private long block = -1;
    private double radius;
    private double angle;

    public NormalStream(long seed, int particle, int step, int tag) {
        this.seed = seed;
        this.particle = particle;
        this.step = step;
        this.tag = tag;
    }

    /** Normal q (0 ≤ q < 2^33). */
    public double at(long q) {
        long b = q >>> 1;
        if (b != block) {
            Philox.block(seed, (int) b, particle, step, tag, words);
            radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
            angle = 2 * Math.PI * Philox.toUniformDouble(words[2], words[3]);
            block = b;
        }
        return (q & 1) == 0 ? radius * Math.cos(angle) : radius * Math.sin(angle);
    }

    /** The 53-bit uniform of words 0-1 of block {@code (index, particle, step, tag)}. */
    public static double uniform(long seed, int index, int particle, int step, int tag) {
        int[] w = new int[4];
        Philox.block(seed, index, particle, step, tag, w);
        return Philox.toUniformDouble(w[0], w[1]);
    }
}
