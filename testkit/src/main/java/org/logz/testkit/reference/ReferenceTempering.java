package org.logz.testkit.reference;

import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The temperature move of simulated tempering (Carlson et al. 2016, Algorithm 1, eq. 7, 9, 21) written
 * from its specification in DESIGN §4, independently of {@link org.logz.backend.TemperingSteps} (which
 * the CPU backend runs): per chain a softmax over levels in float64 (maximum subtracted, sum in level
 * order), the next level by inverse CDF in level order with the 53-bit uniform of Philox block
 * {@code (0, r, step, TEMPERATURE)}, and the per-group, per-level sums over chains in chain order.
 */
final class ReferenceTempering {
    private ReferenceTempering() {
    }

    /**
     * @param statistics G × 4K sums, group g at {@code 4Kg}: occupancy, q-weighted slope, slope at the
     *                   drawn level, visits
     */
    static void temper(double[] logF, double[] slope, double[] logLevelWeight, double[] levelBetas, int[] level,
                       int[] nextLevel, double[] betas, double[] q, double[] statistics, int groups, int count, int levels,
                       long seed, int step) {
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
            Philox.block(seed, 0, r, step, StreamTag.TEMPERATURE, words);
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
        for (int g = 0; g < groups; g++) {
            int base = 4 * levels * g;
            for (int k = 0; k < levels; k++) {
                double occupancy = 0;
                double weighted = 0;
                double atLevel = 0;
                double visits = 0;
                for (int r = g; r < count; r += groups) {
                    double p = q[r * levels + k];
                    double d = slope[r * levels + k];
                    occupancy += p;
                    weighted += p * d;
                    if (level[r] == k) {
                        atLevel += d;
                        visits++;
                    }
                }
                statistics[base + k] += occupancy;
                statistics[base + levels + k] += weighted;
                statistics[base + 2 * levels + k] += atLevel;
                statistics[base + 3 * levels + k] += visits;
            }
        }
    }
}
