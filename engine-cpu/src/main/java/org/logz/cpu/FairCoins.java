package org.logz.cpu;

import org.logz.random.Philox;

/**
 * Uniform base draws of two-state models (Ising spins ±1, an RBM's hidden units 0/1 on the marginal path): value i of
 * chain c is {@code heads} when word i mod 4 of Philox block {@code (firstBlock + i/4, c, step, tag)} is below 1/2.
 */
final class FairCoins {
    private FairCoins() {
    }

    static void draw(CpuBackend backend, CpuMatrix x, int count, int n, long seed, int firstBlock, int step,
                     int firstChain, int tag, float heads, float tails) {
        backend.forEachTile(0, count, (t, from, to) -> {
            float[] row = new float[n];
            int[] words = new int[4];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                for (int i = 0; i < n; i++) {
                    if ((i & 3) == 0) {
                        Philox.block(seed, firstBlock + (i >>> 2), firstChain + particle, step, tag, words);
                    }
                    row[i] = Philox.toUniform(words[i & 3]) < 0.5f ? heads : tails;
                }
                x.writeRow(particle, row, 0);
            }
        });
    }
}
