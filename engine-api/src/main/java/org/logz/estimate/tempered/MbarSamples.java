package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.Arrays;
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

    /** {@code count} empty stores for the chain groups behind MBAR's standard error. */
    static List<MbarSamples> groups(int levels, int count) {
        List<MbarSamples> out = new ArrayList<>(count);
        for (int g = 0; g < count; g++) {
            out.add(new MbarSamples(levels));
        }
        return out;
    }

    /**
     * Adds one snapshot of every chain, chain c to group {@code c mod G}. Chains are independent in the
     * final run, so per-group estimates are independent and their spread is an honest standard error;
     * consecutive batches in time are not (a chain's state carries over), and their spread understated
     * MBAR's error by half on the 6×6 Ising model.
     */
    static void addByChain(List<MbarSamples> groups, double[] rows, int[] drawnAt) {
        int g = groups.size();
        int levels = groups.get(0).levels;
        for (int group = 0; group < g; group++) {
            int count = (drawnAt.length - group + g - 1) / g;
            double[] r = new double[count * levels];
            int[] at = new int[count];
            for (int i = 0, c = group; c < drawnAt.length; i++, c += g) {
                System.arraycopy(rows, c * levels, r, i * levels, levels);
                at[i] = drawnAt[c];
            }
            groups.get(group).add(r, at, count);
        }
    }

    /**
     * Adds one snapshot of every chain of parallel tempering's ladders, chain c to ladder {@code c / levels}: ladders
     * never exchange states, so their estimates are independent.
     */
    static void addByLadder(List<MbarSamples> ladders, double[] rows, int[] drawnAt, int levels) {
        for (int g = 0; g < ladders.size(); g++) {
            ladders.get(g).add(Arrays.copyOfRange(rows, g * levels * levels, (g + 1) * levels * levels),
                    Arrays.copyOfRange(drawnAt, g * levels, (g + 1) * levels), levels);
        }
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

    /** MBAR's curve {@code log Z_k} and the self-consistency residual it was solved to. */
    record Curve(double[] logZ, double residual) {
    }

    /**
     * MBAR's curve {@code log Z_k = log Z_0 - f_k} on the stored samples, started from the free
     * energies of {@code initialLogZ} (the RTS curve, which is close).
     */
    Curve curve(double logZ0, double[] initialLogZ) {
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
        Mbar mbar = Mbar.solve(u, counts, initial);
        double[] f = mbar.freeEnergies();
        double[] out = new double[levels];
        for (int k = 0; k < levels; k++) {
            out[k] = logZ0 - f[k];
        }
        return new Curve(out, mbar.residual());
    }
}
