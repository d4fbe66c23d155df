package org.logz.random;

/**
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), bit-exact
 * with Random123 and with {@code kernels-cu/src/main/cuda/philox.cuh}.
 *
 * <p>Counter layout used everywhere in logz (DESIGN §3): {@code c0} = block index within one draw
 * (four uniforms per block), {@code c1} = particle index, {@code c2} = step index, {@code c3} =
 * stream tag ({@link StreamTag}). Key = the run's 64-bit seed, {@code k0} = low word,
 * {@code k1} = high word. Because every uniform is a pure function of (seed, counter), results do
 * not depend on thread counts or launch shapes.
 */
public final class Philox {
    private static final int M0 = 0xD2511F53;
    private static final int M1 = 0xCD9E8D57;
    private static final int W0 = 0x9E3779B9;
    private static final int W1 = 0xBB67AE85;
    private static final long MASK = 0xFFFFFFFFL;

    /** 2^-23: the spacing of the 23-bit uniforms of {@link #toUniform(int)}. */
    private static final float TWO_POW_M23 = 0x1.0p-23f;

    private Philox() {
    }

    /**
     * Ten Philox rounds on the counter {@code (c0, c1, c2, c3)} under key {@code (k0, k1)}.
     *
     * @param out receives the four output words; must have length at least 4
     */
    public static void block(int c0, int c1, int c2, int c3, int k0, int k1, int[] out) {
        for (int round = 0; round < 10; round++) {
            long p0 = (M0 & MASK) * (c0 & MASK);
            long p1 = (M1 & MASK) * (c2 & MASK);
            int hi0 = (int) (p0 >>> 32);
            int lo0 = (int) p0;
            int hi1 = (int) (p1 >>> 32);
            int lo1 = (int) p1;
            c0 = hi1 ^ c1 ^ k0;
            c1 = lo1;
            c2 = hi0 ^ c3 ^ k1;
            c3 = lo0;
            k0 += W0;
            k1 += W1;
        }
        out[0] = c0;
        out[1] = c1;
        out[2] = c2;
        out[3] = c3;
    }

    /** Philox block keyed by a 64-bit seed: {@code k0} = low word, {@code k1} = high word. */
    public static void block(long seed, int c0, int c1, int c2, int c3, int[] out) {
        block(c0, c1, c2, c3, (int) seed, (int) (seed >>> 32), out);
    }

    /**
     * A uint32 as a float in the open interval (0, 1): {@code ((x >>> 9) + 0.5f) * 2^-23}.
     *
     * <p>Departure from DESIGN §3, which writes {@code ((x >>> 8) + 0.5f) * 2^-24}: in float32,
     * {@code k + 0.5} is not representable for {@code k >= 2^23}, so the largest input rounds to
     * exactly 1.0f and the interval is not open. Keeping 23 bits makes every value exact, the
     * smallest 2^-24 and the largest 1 - 2^-24. The CUDA side uses the same expression.
     */
    public static float toUniform(int x) {
        return ((x >>> 9) + 0.5f) * TWO_POW_M23;
    }

    /**
     * Two uint32 words as a double in the open interval (0, 1) with 53 random bits:
     * {@code ((w0 >>> 5) * 2^26 + (w1 >>> 6) + 0.5) * 2^-53}. Used where float resolution would bias
     * the draw (resampling among many particles, exact sampling among many states).
     */
    public static double toUniformDouble(int w0, int w1) {
        long bits = ((long) (w0 >>> 5) << 26) | (w1 >>> 6);
        return (bits + 0.5) * 0x1.0p-53;
    }

    /**
     * A key derived from {@code seed} for one purpose: the first two words of the Philox block at
     * counter (index, 0, 0, purpose), with purpose one of the derivation tags of {@link StreamTag}.
     */
    public static long derive(long seed, int purpose, int index) {
        int[] out = new int[4];
        block(seed, index, 0, 0, purpose, out);
        return (out[0] & MASK) | ((long) out[1] << 32);
    }

    /**
     * The key of replicate {@code replicate} of a run keyed by {@code seed}. Replicate 0 is the run
     * itself, so a single run and the first replicate of a replicated run agree.
     */
    public static long replicateSeed(long seed, int replicate) {
        return replicate == 0 ? seed : derive(seed, StreamTag.REPLICATE, replicate);
    }
}
