package org.logz.cpu;

import java.util.function.ToDoubleFunction;

import org.logz.backend.ParticleVector;

/**
 * The log densities and levels of a path linear in β, {@code log f_β(x) = β E(x)} (the Ising and Potts tori): E of each
 * row once, rows in parallel over tiles; {@code energy} reads one row of {@code n} values.
 */
final class LinearPathRows {
    private LinearPathRows() {
    }

    /** {@code out[r] = β E(x_r)}. */
    static void logDensity(CpuBackend backend, CpuMatrix xm, int n, int count, double beta, ParticleVector out,
                           ToDoubleFunction<float[]> energy) {
        double[] values = backend.own(out).values();
        backend.forEachTile(0, count, (t, from, to) -> {
            float[] row = new float[n];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                xm.readRow(particle, row, 0);
                values[particle] = beta * energy.applyAsDouble(row);
            }
        });
    }

    /** {@code logF = β_k E}, {@code slope = E}: the slope does not depend on β. */
    static void levels(CpuBackend backend, CpuMatrix xm, int n, int count, ParticleVector levelBetas, int levels,
                       ParticleVector logF, ParticleVector slope, ToDoubleFunction<float[]> energy) {
        LinearLevels.fill(backend, count, levelBetas, levels, logF, slope, () -> {
            float[] row = new float[n];
            return particle -> {
                xm.readRow(particle, row, 0);
                return energy.applyAsDouble(row);
            };
        });
    }
}
