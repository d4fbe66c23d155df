package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class ReplicatesTest {
    /** A run with a fixed estimate, held against {@code against} where it is given. */
    private record Run(double logZ, double stdErr, Optional<Run> heldAgainst) implements Estimate {
        static Run of(double logZ, double stdErr, double against, double againstStdErr) {
            return new Run(logZ, stdErr, Optional.of(new Run(against, againstStdErr, Optional.empty())));
        }

        @Override
        public Method method() {
            return Method.RAISE;
        }

        @Override
        public String backend() {
            return "cpu";
        }

        @Override
        public long seed() {
            return 1;
        }

        @Override
        public double seconds() {
            return 0;
        }

        @Override
        public OptionalDouble standardError() {
            return OptionalDouble.of(stdErr);
        }

        @Override
        public OptionalDouble visitedBound() {
            return OptionalDouble.empty();
        }

        @Override
        public List<Warning> warnings() {
            return List.of();
        }
    }

    /**
     * Each replicate's RAISE lies 0.2 above its forward AIS, within four of their combined errors (0.3), so no
     * replicate warns; pooled over eight, the spread of each side is about 0.02 and the gap of 0.2 is ten of them.
     */
    @Test
    void aGapWithinEachReplicatesErrorIsWarnedOnWhenPooled() {
        double[] noise = {0.01, -0.02, 0.015, -0.005, 0.02, -0.01, 0.0, 0.005};
        List<Run> runs = Arrays.stream(noise).mapToObj(n -> Run.of(-27.27 + n, 0.05, -27.47 - n, 0.05))
                .toList();
        List<Warning> warnings = Replicates.of(runs).warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals("estimators-disagree", warnings.get(0).code());
        assertTrue(warnings.get(0).message().contains("pooled over 8 replicates"), warnings.get(0).message());
    }

    @Test
    void replicatesThatAgreeWithWhatTheyAreHeldAgainstAreNotWarnedOn() {
        double[] noise = {0.01, -0.02, 0.015, -0.005, 0.02, -0.01, 0.0, 0.005};
        List<Run> runs = Arrays.stream(noise).mapToObj(n -> Run.of(-27.47 + n, 0.05, -27.47 - n, 0.05))
                .toList();
        assertEquals(List.of(), Replicates.of(runs).warnings());
    }
}
