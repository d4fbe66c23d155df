package org.logz.estimate.tempered;

/**
 * What the parts of a tempered sampling run do between two reads of the coordinator ({@link TemperedCoordinator}):
 * every chain couples to the others only through {@code log Ẑ}, which the coordinator updates from all parts' sums
 * after each initial round, so a run split by chains runs as one stage per round (Carlson et al. 2016, §2.4).
 */
public sealed interface TemperedStage {
    /** The annealing pass from the base over the ladder, whose running AIS estimate starts {@code log Ẑ}. */
    record Anneal() implements TemperedStage {
    }

    /**
     * Initial round {@code round} at fixed {@code log Ẑ}: levels restarted uniformly, {@code roundSweeps·2^round}
     * iterations, the sums read over the second half.
     */
    record Round(int round, double[] logZHat) implements TemperedStage {
        public Round {
            logZHat = logZHat.clone();
        }

        @Override
        public double[] logZHat() {
            return logZHat.clone();
        }
    }

    /**
     * The burn-in and the final run at fixed {@code log Ẑ}; {@code restart}: the levels restart first, where no
     * initial round ran (the chains hold states annealed to β = 1).
     */
    record Final(double[] logZHat, boolean restart) implements TemperedStage {
        public Final {
            logZHat = logZHat.clone();
        }

        @Override
        public double[] logZHat() {
            return logZHat.clone();
        }
    }
}
