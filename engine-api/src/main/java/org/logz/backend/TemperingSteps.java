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
        int width = SUMS * levels;
        // a block's sums from zero, laid out as statistics: chain by chain, so that q and slope are read in memory
        // order; every (group, level) still takes its members in chain order, so the bits are those of a walk
        // down each column
        double[] partial = new double[width * groups];
        for (int b = 0; b < blocks; b++) {
            java.util.Arrays.fill(partial, 0);
            int end = (int) Math.min(count, (b + 1) * span);
            for (int r = (int) (b * span); r < end; r++) {
                int base = width * (r % groups);
                int row = r * levels;
                for (int k = 0; k < levels; k++) {
                    double p = q[row + k];
                    double d = slope[row + k];
                    partial[base + k] += p;
                    partial[base + levels + k] += p * d;
                }
                int k = level[r];
                if (k >= 0 && k < levels) {
                    double d = slope[row + k];
                    partial[base + 2 * levels + k] += d;
                    partial[base + 3 * levels + k] += 1;
                    partial[base + 4 * levels + k] += d * d;
                }
            }
            int offset = width * groups * b;
            for (int e = 0; e < partial.length; e++) {
                statistics[offset + e] += partial[e];
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
