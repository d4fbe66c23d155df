package org.logz.backend;

import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Host reference of {@link ParticleBackend#temper}'s arithmetic, which every backend reproduces (the
 * CPU backend runs it as is; {@code tempering.cu} mirrors it): per chain a softmax over levels in
 * float64 with the maximum subtracted and the sum taken in level order, a draw by inverse CDF in
 * level order, and per level sums over chains in chain order.
 */
public final class TemperingSteps {
    private TemperingSteps() {
    }

    /**
     * {@link ParticleBackend#temper} for a backend without {@link TemperingMoves}: downloads the inputs,
     * draws and accumulates here, uploads the outputs. Arguments are checked by the caller.
     */
    static void onHost(ParticleBackend backend, Tempering t, int count, int levels, long seed, int step) {
        int cells = count * levels;
        double[] logF = backend.download(t.logF(), cells);
        double[] slope = backend.download(t.slope(), cells);
        double[] weight = backend.download(t.logLevelWeight(), levels);
        double[] levelBetas = backend.download(t.levelBetas(), levels);
        int[] level = backend.download(t.level(), count);
        double[] statistics = backend.download(t.statistics(), 4 * levels * t.groups());
        double[] q = new double[cells];
        int[] next = new int[count];
        double[] betas = new double[count];
        for (int r = 0; r < count; r++) {
            next[r] = draw(logF, weight, r, levels, seed, step, q);
            betas[r] = levelBetas[next[r]];
        }
        accumulate(q, slope, level, count, levels, t.groups(), statistics);
        backend.upload(next, t.nextLevel());
        backend.upload(betas, t.betas());
        backend.upload(q, t.probabilities());
        backend.upload(statistics, t.statistics());
    }

    /**
     * Writes {@code q_rk ∝ exp(logF_rk + weight_k)} of chain r into {@code q[r·levels ..]} and returns
     * the level drawn from it with the 53-bit uniform of Philox block {@code (0, r, step, TEMPERATURE)}.
     */
    public static int draw(double[] logF, double[] weight, int r, int levels, long seed, int step, double[] q) {
        int row = r * levels;
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < levels; k++) {
            max = Math.max(max, logF[row + k] + weight[k]);
        }
        double total = 0;
        for (int k = 0; k < levels; k++) {
            double e = Math.exp(logF[row + k] + weight[k] - max);
            q[row + k] = e;
            total += e;
        }
        int[] words = new int[4];
        Philox.block(seed, 0, r, step, StreamTag.TEMPERATURE, words);
        double target = Philox.toUniformDouble(words[0], words[1]) * total;
        int chosen = levels - 1;
        double cumulative = 0;
        for (int k = 0; k < levels; k++) {
            cumulative += q[row + k];
            if (cumulative > target) {
                chosen = k;
                break;
            }
        }
        for (int k = 0; k < levels; k++) {
            q[row + k] /= total;
        }
        return chosen;
    }

    /**
     * Group members per chunk of the per-level sums: a group's chains are summed in chain order within each chunk of
     * {@value} consecutive members, then the chunk sums in chunk order. tempering.cu does the same in two kernels, one
     * thread per (group, level, chunk) and one per (group, level), so the statistics agree to the bit while the device
     * sums in parallel over chains rather than in one serial loop per level.
     */
    public static final int CHUNK = 256;

    /**
     * Adds, per group g of chains (r mod G = g) and level k, over the group's chains in chunked order ({@link #CHUNK}):
     * {@code Σ q_rk}, {@code Σ q_rk slope_rk}, and over the chains whose state was drawn at level k,
     * {@code Σ slope_rk} and their number; group g's sums start at {@code 4Kg}.
     */
    public static void accumulate(double[] q, double[] slope, int[] level, int count, int levels, int groups,
                                  double[] statistics) {
        int members = (count + groups - 1) / groups;
        double[] chunk = new double[4];
        for (int e = 0; e < groups * levels; e++) {
            int g = e / levels;
            int k = e % levels;
            double[] total = new double[4];
            for (int c = 0; c * CHUNK < members; c++) {
                java.util.Arrays.fill(chunk, 0);
                for (int m = c * CHUNK; m < Math.min(members, (c + 1) * CHUNK); m++) {
                    long r = g + (long) m * groups;
                    if (r >= count) {
                        break;
                    }
                    int cell = (int) r * levels + k;
                    double p = q[cell];
                    chunk[0] += p;
                    chunk[1] += p * slope[cell];
                    if (level[(int) r] == k) {
                        chunk[2] += slope[cell];
                        chunk[3] += 1;
                    }
                }
                for (int j = 0; j < 4; j++) {
                    total[j] += chunk[j];
                }
            }
            int base = 4 * levels * g;
            for (int j = 0; j < 4; j++) {
                statistics[base + j * levels + k] += total[j];
            }
        }
    }
}
