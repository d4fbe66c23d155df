package org.logz.estimate.ep;

import java.util.OptionalDouble;

import org.logz.estimate.Estimate;

/** A deterministic approximation computed on the host in float64: no Philox key, no standard error, no visited states. */
interface Approximation extends Estimate {
    /** It runs on the host whatever backend the command names. */
    @Override
    default String backend() {
        return "host";
    }

    @Override
    default long seed() {
        return 0;
    }

    /** A deterministic approximation has no standard error. */
    @Override
    default OptionalDouble standardError() {
        return OptionalDouble.empty();
    }

    @Override
    default OptionalDouble visitedBound() {
        return OptionalDouble.empty();
    }
}
