package org.logz.api;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;

import org.logz.estimate.Estimate;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;

/**
 * The answer of {@link Consensus}: log Z to a requested accuracy, with the evidence behind it.
 *
 * @param tolerance the accuracy asked for
 * @param reached   whether both estimators met it (standard errors below half of it, no warnings but the model's) and
 *                  agreed within it
 * @param logZ      the inverse-variance weighted mean of the two estimators' last readings
 * @param stdErr    its standard error; where the two were not reached, at least half the gap between them
 * @param readings  every round's readings, in the order they ran
 * @param rounds    rounds run
 * @param verdict   one sentence on how the run ended
 * @param backend   the backend the runs ran on
 * @param seed      the Philox key the rounds' keys derive from
 * @param seconds   wall time of all rounds
 */
public record ConsensusResult(double tolerance, boolean reached, double logZ, double stdErr, List<Reading> readings,
                              int rounds, String verdict, String backend, long seed, double seconds) implements Estimate {
    public ConsensusResult {
        readings = List.copyOf(readings);
    }

    /**
     * One estimator's run in one round.
     *
     * @param method   the estimator
     * @param budget   its settings, as command-line options
     * @param warnings what its own diagnostics and the model said against it
     */
    public record Reading(Method method, String budget, double logZ, double stdErr, double seconds,
                          List<Warning> warnings) {
        public Reading {
            warnings = List.copyOf(warnings);
        }
    }

    @Override
    public Method method() {
        return Method.CONSENSUS;
    }

    @Override
    public OptionalDouble standardError() {
        return OptionalDouble.of(stdErr);
    }

    /** The readings checked their own visited-state bounds. */
    @Override
    public OptionalDouble visitedBound() {
        return OptionalDouble.empty();
    }

    /** The last reading of each estimator, in the order they first ran: the evidence. */
    public List<Reading> evidence() {
        List<Reading> out = new ArrayList<>();
        for (Reading r : readings) {
            out.removeIf(o -> o.method() == r.method());
            out.add(r);
        }
        out.sort(Comparator.comparingInt(r -> firstIndex(r.method())));
        return out;
    }

    private int firstIndex(Method m) {
        for (int i = 0; i < readings.size(); i++) {
            if (readings.get(i).method() == m) {
                return i;
            }
        }
        return readings.size();
    }

    /** {@code tolerance-not-reached} where the run stopped first, with the readings it had. */
    @Override
    public List<Warning> warnings() {
        return reached ? List.of() : List.of(new Warning("tolerance-not-reached", verdict));
    }
}
