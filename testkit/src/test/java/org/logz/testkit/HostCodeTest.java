package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.backend.TemperingSteps;

/**
 * Checks of engine-api's host code that involve no backend, run once here instead of in every binding of a
 * contract. (That the reference backend agrees with the host code is the reference binding of the contracts.)
 */
class HostCodeTest {
    /** The statistics kept per group of chains sum, over the groups, to those of one group of all chains. */
    @Test
    void temperingStatisticsGroupsPartitionTheChains() {
        int count = 1100;
        int levels = 13;
        int groups = 3;
        double[] logF = TemperingContract.uniforms(count * levels, -40, 40, 1);
        double[] slope = TemperingContract.uniforms(count * levels, -5, 5, 2);
        double[] weight = TemperingContract.uniforms(levels, -30, 30, 3);
        int[] level = new int[count];
        for (int r = 0; r < count; r++) {
            level[r] = (r * 7) % levels;
        }
        double[] q = new double[count * levels];
        for (int r = 0; r < count; r++) {
            TemperingSteps.draw(logF, weight, r, r, levels, 9, 4, q);
        }
        int length = TemperingSteps.statisticsLength(count, levels, groups);
        double[] statistics = new double[length];
        Arrays.fill(statistics, 0.5);
        TemperingSteps.accumulate(q, slope, level, count, levels, groups, statistics);
        double[] oneGroup = new double[TemperingSteps.statisticsLength(count, levels, 1)];
        TemperingSteps.accumulate(q, slope, level, count, levels, 1, oneGroup);
        double[] ungrouped = TemperingSteps.groupSums(oneGroup, levels, 1);
        for (int e = 0; e < ungrouped.length; e++) {
            double sum = 0;
            for (int cell = 0; cell < length / ungrouped.length; cell++) {
                sum += statistics[cell * ungrouped.length + e] - 0.5;
            }
            assertEquals(ungrouped[e], sum, 1e-9 * (1 + Math.abs(sum)), "groups partition the chains: statistic " + e);
        }
    }
}
