package org.logz.testkit.reference;

import org.logz.backend.TemperingSteps;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The temperature move of simulated tempering (Carlson et al. 2016, Algorithm 1, eq. 7, 9, 21) written
 * from its specification in DESIGN §4, independently of {@link org.logz.backend.TemperingSteps} (which
 * the CPU backend runs): per chain a softmax over levels in float64 (maximum subtracted, sum in level
 * order), the next level by inverse CDF in level order with the 53-bit uniform of Philox block
 * {@code (0, chain, step, TEMPERATURE)}, and the per-block, per-group, per-level sums over chains in chain order.
 */
final class ReferenceTempering {
    private ReferenceTempering() {
    }

    /**
     * @param statistics blocks × G × 5K sums, block b's group g at {@code 5K(bG + g)} (block b: chains
     *                   {@code [BLOCK_MEMBERS·G·b, BLOCK_MEMBERS·G·(b+1))}): occupancy, q-weighted slope, slope at the
     *                   drawn level, visits, squared slope at the drawn level, each chain added in chain order
     * @param firstChain the run's index of row 0, whose Philox stream row 0 draws from
     */
    static void temper(double[] logF, double[] slope, double[] logLevelWeight, double[] levelBetas, int[] level,
                       int[] nextLevel, double[] betas, double[] q, double[] statistics, int groups, int firstChain, int count,
                       int levels, long seed, int step) {
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            int row = r * levels;
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < levels; k++) {
                max = Math.max(max, logF[row + k] + logLevelWeight[k]);
            }
            double sum = 0;
            for (int k = 0; k < levels; k++) {
                q[row + k] = Math.exp(logF[row + k] + logLevelWeight[k] - max);
                sum += q[row + k];
            }
            Philox.block(seed, 0, firstChain + r, step, StreamTag.TEMPERATURE, words);
            double target = Philox.toUniformDouble(words[0], words[1]) * sum;
            int drawn = levels - 1;
            double below = 0;
            for (int k = 0; k < levels && drawn == levels - 1; k++) {
                below += q[row + k];
                if (below > target) {
                    drawn = k;
                }
            }
            nextLevel[r] = drawn;
            betas[r] = levelBetas[drawn];
            for (int k = 0; k < levels; k++) {
                q[row + k] /= sum;
            }
        }
        long span = (long) TemperingSteps.BLOCK_MEMBERS * groups;
        for (int r = 0; r < count; r++) {
            int base = 5 * levels * (int) ((r / span) * groups + r % groups);
            for (int k = 0; k < levels; k++) {
                double p = q[r * levels + k];
                double d = slope[r * levels + k];
                statistics[base + k] += p;
                statistics[base + levels + k] += p * d;
                if (level[r] == k) {
                    statistics[base + 2 * levels + k] += d;
                    statistics[base + 3 * levels + k]++;
                    statistics[base + 4 * levels + k] += d * d;
                }
            }
        }
    }
}
