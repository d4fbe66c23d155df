package org.logz.backend;

import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Host reference of {@link ParticleBackend#temper}'s arithmetic, which every backend reproduces (the
 * CPU backend runs it as is; {@code tempering.cu} mirrors it): per chain a softmax over levels in
 * float64 with the maximum subtracted and the sum taken in level order, a draw by inverse CDF in
 * level order, and per block of chains, group and level sums over chains in chain order ({@link #BLOCK_MEMBERS}).
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
        double[] statistics = backend.download(t.statistics(), statisticsLength(count, levels, t.groups()));
        double[] q = new double[cells];
        int[] next = new int[count];
        double[] betas = new double[count];
        for (int r = 0; r < count; r++) {
            next[r] = draw(logF, weight, r, t.firstChain() + r, levels, seed, step, q);
            betas[r] = levelBetas[next[r]];
        }
        accumulate(q, slope, level, count, levels, t.groups(), statistics);
        backend.upload(next, t.nextLevel());
        backend.upload(betas, t.betas());
        backend.upload(q, t.probabilities());
        backend.upload(statistics, t.statistics());
    }

    /**
     * Writes {@code q_rk ∝ exp(logF_rk + weight_k)} of row r into {@code q[r·levels ..]} and returns the level drawn
     * from it with the 53-bit uniform of Philox block {@code (0, chain, step, TEMPERATURE)}, {@code chain} being the
     * row's index in the whole run.
     */
    public static int draw(double[] logF, double[] weight, int r, int chain, int levels, long seed, int step,
                           double[] q) {
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
        Philox.block(seed, 0, chain, step, StreamTag.TEMPERATURE, words);
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
     * Members of each group per block of the per-level sums. Block b holds chains {@code [64·G·b, 64·G·(b+1))}, the
     * b-th run of {@value} members of every group; each block keeps its own sums, added to in chain order at every
     * move, and a reader adds the blocks in block order ({@link #groupSums}). A run's chains split at block boundaries
     * (Spark tasks, {@link org.logz.estimate.tempered.TemperedPart}) therefore keep the sums of the whole run
     * to the bit, and tempering.cu sums in parallel, one thread per (block, group, level).
     */
    public static final int BLOCK_MEMBERS = 64;

    /** Blocks of {@link #BLOCK_MEMBERS} members per group that {@code count} chains in {@code groups} groups fill. */
    public static int blocks(int count, int groups) {
        long span = (long) BLOCK_MEMBERS * groups;
        return (int) ((count + span - 1) / span);
    }

    /** Sums kept per (block, group) and level ({@link Tempering#statistics()}). */
    public static final int SUMS = 5;

    /** Doubles of {@link Tempering#statistics()} for {@code count} chains, {@code levels} levels, {@code groups} groups. */
    public static int statisticsLength(int count, int levels, int groups) {
        return Math.multiplyExact(Math.multiplyExact(SUMS * levels, groups), Math.max(1, blocks(count, groups)));
    }

    /**
     * Adds, per block b, group g (chain r in group r mod G) and level k, over the block's members of the group in chain
     * order: {@code Σ q_rk}, {@code Σ q_rk slope_rk}, and over the chains whose state was drawn at level k,
     * {@code Σ slope_rk}, their number and {@code Σ slope_rk²}; the sums of (b, g) start at {@code 5K(bG + g)}.
     */
    public static void accumulate(double[] q, double[] slope, int[] level, int count, int levels, int groups,
                                  double[] statistics) {
        long span = (long) BLOCK_MEMBERS * groups;
        int blocks = blocks(count, groups);
        double[] sums = new double[SUMS];
        for (int b = 0; b < blocks; b++) {
            for (int g = 0; g < groups; g++) {
                int base = SUMS * levels * (b * groups + g);
                for (int k = 0; k < levels; k++) {
                    java.util.Arrays.fill(sums, 0);
                    for (long r = b * span + g; r < Math.min(count, (b + 1) * span); r += groups) {
                        int cell = (int) r * levels + k;
                        double p = q[cell];
                        sums[0] += p;
                        sums[1] += p * slope[cell];
                        if (level[(int) r] == k) {
                            sums[2] += slope[cell];
                            sums[3] += 1;
                            sums[4] += slope[cell] * slope[cell];
                        }
                    }
                    for (int j = 0; j < SUMS; j++) {
                        statistics[base + j * levels + k] += sums[j];
                    }
                }
            }
        }
    }

    /**
     * The G × 5K sums of each group over its blocks, added in block order from zero: what {@link #accumulate} gathered
     * in {@code blockStatistics} ({@code blocks × G × 5K}).
     */
    public static double[] groupSums(double[] blockStatistics, int levels, int groups) {
        int width = SUMS * levels;
        int blocks = blockStatistics.length / (width * groups);
        double[] out = new double[width * groups];
        for (int b = 0; b < blocks; b++) {
            for (int e = 0; e < out.length; e++) {
                out[e] += blockStatistics[b * out.length + e];
            }
        }
        return out;
    }
}
