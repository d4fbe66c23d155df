package org.logz.cpu;

import java.util.function.IntToDoubleFunction;
import java.util.function.Supplier;

import org.logz.backend.ParticleVector;

/**
 * The levels of a path linear in β, {@code log f_β(x) = β·S(x)} (Ising, the marginal RBM): one S per chain, then
 * {@code logF[r·levels + k] = β_k·S} and {@code slope[r·levels + k] = S}, rows in parallel over tiles.
 */
final class LinearLevels {
    private LinearLevels() {
    }

    /** {@code slopes} gives each tile its own function from a chain's row to its S (with that tile's scratch). */
    static void fill(CpuBackend backend, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                     ParticleVector slope, Supplier<IntToDoubleFunction> slopes) {
        double[] betas = backend.own(levelBetas).values();
        double[] f = backend.own(logF).values();
        double[] d = backend.own(slope).values();
        backend.forEachTile(0, count, (t, from, to) -> {
            IntToDoubleFunction s = slopes.get();
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                double value = s.applyAsDouble(particle);
                for (int k = 0; k < levels; k++) {
                    f[particle * levels + k] = betas[k] * value;
                    d[particle * levels + k] = value;
                }
            }
        });
    }
}
