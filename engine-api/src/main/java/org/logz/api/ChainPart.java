package org.logz.api;

import java.util.ArrayList;
import java.util.List;

/**
 * A piece of one replicate's run that can run anywhere (annealing, or tempered sampling in stages): chains {@code firstChain .. firstChain + chains - 1} of
 * its forward (base to target) or reverse run. Every chain draws from its own Philox streams, keyed by the replicate's
 * seed and the chain's index, so the pieces of a run, run apart and put together by {@link Estimation#combine}, are the
 * run (DESIGN §1, distributed runs).
 */
public record ChainPart(int replicate, boolean reverse, int firstChain, int chains) {
    /**
     * Chain ranges start at multiples of this: the CPU backend multiplies chains in tiles of 64 rows, so a part that
     * starts on a tile boundary keeps every chain in the tile row it has in the whole run, and with it the bits of
     * the products.
     */
    public static final int CHAIN_BLOCK = 64;

    public ChainPart {
        if (replicate < 0 || firstChain < 0 || chains < 1 || (long) firstChain + chains > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("no chain part: replicate " + replicate + ", chains " + firstChain + " + "
                    + chains);
        }
    }

    /**
     * {@code total} chains in at most {@code parts} contiguous ranges {@code {first, count}} that start at multiples of
     * {@link #CHAIN_BLOCK} and are as even as those starts allow; fewer ranges when there are fewer blocks.
     */
    public static List<int[]> ranges(int total, int parts) {
        return ranges(total, parts, CHAIN_BLOCK);
    }

    /** {@link #ranges(int, int)} on blocks of {@code block} chains (a tempered run's: 64 members of each group). */
    public static List<int[]> ranges(int total, int parts, long block) {
        if (total < 1 || parts < 1 || block < 1) {
            throw new IllegalArgumentException("cannot split " + total + " chains into " + parts + " parts of blocks of "
                    + block);
        }
        long blocks = (total + block - 1) / block;
        int n = (int) Math.min(parts, blocks);
        List<int[]> ranges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long from = Math.min(total, blocks * i / n * block);
            long to = Math.min(total, blocks * (i + 1) / n * block);
            ranges.add(new int[] {(int) from, (int) (to - from)});
        }
        return ranges;
    }
}
