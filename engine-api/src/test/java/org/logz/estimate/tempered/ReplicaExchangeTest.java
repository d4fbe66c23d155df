package org.logz.estimate.tempered;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class ReplicaExchangeTest {
    /** Log densities under which every proposed swap's log acceptance ratio is {@code logRatio}. */
    private static double[] tilted(int chains, double logRatio) {
        double[] picked = new double[3 * chains];
        Arrays.fill(picked, 2 * chains, 3 * chains, logRatio);
        return picked;
    }

    @Test
    void swapsThatAlwaysSucceedCarryEveryReplicaStraightAcrossTheLadderAndBack() {
        int k = 10;
        ReplicaExchange exchange = new ReplicaExchange(2, k);
        double[] flat = new double[3 * 2 * k];
        for (int step = 0; step < 400; step++) {
            exchange.swap(flat, 1, step);
        }
        // the even-odd scheme moves a replica that always swaps one level per iteration in one direction, so a round
        // trip takes 2K iterations (a reversible scheme would diffuse, K² of them)
        for (long trips : exchange.roundTrips()) {
            assertTrue(trips >= 180 && trips <= 200, "round trips " + trips);
        }
        for (double rate : exchange.acceptance()) {
            assertEquals(1.0, rate);
        }
        int[] levels = exchange.levels();
        for (int g = 0; g < 2; g++) {
            int[] ladder = Arrays.copyOfRange(levels, g * k, (g + 1) * k);
            Arrays.sort(ladder);
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, ladder, "each ladder keeps one chain per level");
        }
    }

    @Test
    void aSwapIsAcceptedWithMetropolisProbability() {
        int k = 6;
        int ladders = 50;
        ReplicaExchange exchange = new ReplicaExchange(ladders, k);
        double logRatio = Math.log(0.3);
        for (int step = 0; step < 400; step++) {
            exchange.swap(tilted(exchange.chains(), logRatio), 7, step);
        }
        for (double rate : exchange.acceptance()) {
            // 400 / 2 proposals per pair and ladder: 10,000 draws, standard deviation 0.005
            assertEquals(0.3, rate, 0.025);
        }
        exchange.resetCounts();
        assertTrue(Double.isNaN(exchange.acceptance()[0]));
        assertEquals(0, exchange.roundTrips()[0]);
    }

    @Test
    void theNeighbourIndicesAreOwnLowerAndUpperLevelsClampedAtTheEnds() {
        ReplicaExchange exchange = new ReplicaExchange(1, 3);
        assertArrayEquals(new int[] {0, 4, 8, 0, 3, 7, 1, 5, 8}, exchange.neighbourIndices());
        assertArrayEquals(new double[] {0.0, 0.5, 1.0}, exchange.chainBetas(new double[] {0, 0.5, 1}));
    }
}
