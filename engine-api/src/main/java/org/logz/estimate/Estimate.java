package org.logz.estimate;

import java.util.OptionalDouble;

/** What every estimator's result has in common. */
public interface Estimate {
    /** Method name as on the command line. */
    String method();

    String backend();

    /** The estimate of log Z. */
    double logZ();

    /** The run's Philox key. */
    long seed();

    /** Wall time of the run. */
    double seconds();

    /** The standard error of {@link #logZ()} from this run alone, where the method has a sound one. */
    OptionalDouble standardError();
}
