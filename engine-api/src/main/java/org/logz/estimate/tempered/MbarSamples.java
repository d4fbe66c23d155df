package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.List;

import org.logz.estimate.mbar.Mbar;

/**
 * Thinned tempered samples kept for MBAR (Shirts &amp; Chodera 2008; Carlson et al. 2016 §3.3): for each
 * stored chain state its log density at every level and the level it was drawn at. Sample n of level
 * k has reduced potential {@code u_kn = -log f_k(x_n)}.
 */
final class MbarSamples {
    private final int levels;
    private final List<double[]> logF = new ArrayList<>();
    private final List<int[]> level = new ArrayList<>();
    private int size;

    MbarSamples(int levels) {
        this.levels = levels;
    }

    /** Adds {@code count} states: row r of {@code rows} (count × K) drawn at {@code drawnAt[r]}. */
    void add(double[] rows, int[] drawnAt, int count) {
        logF.add(rows);
        level.add(drawnAt);
        size += count;
    }

    /** Adds the samples of another store (shared, not copied). */
    void addAll(MbarSamples other) {
        logF.addAll(other.logF);
        level.addAll(other.level);
        size += other.size;
    }

    int size() {
        return size;
    }

    /**
     * MBAR's curve {@code log Z_k = log Z_0 - f_k} on the stored samples, started from the free
     * energies of {@code initialLogZ} (the RTS curve, which is close).
     */
    double[] curve(double logZ0, double[] initialLogZ) {
        double[][] u = new double[levels][size];
        int[] counts = new int[levels];
        int n = 0;
        for (int b = 0; b < logF.size(); b++) {
            double[] rows = logF.get(b);
            int[] at = level.get(b);
            for (int r = 0; r < at.length; r++, n++) {
                for (int k = 0; k < levels; k++) {
                    u[k][n] = -rows[r * levels + k];
                }
                counts[at[r]]++;
            }
        }
        double[] initial = new double[levels];
        for (int k = 0; k < levels; k++) {
            initial[k] = -(initialLogZ[k] - initialLogZ[0]);
        }
        double[] f = Mbar.solve(u, counts, initial).freeEnergies();
        double[] out = new double[levels];
        for (int k = 0; k < levels; k++) {
            out[k] = logZ0 - f[k];
        }
        return out;
    }
}
