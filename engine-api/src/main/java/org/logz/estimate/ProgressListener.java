package org.logz.estimate;

/**
 * Told of an estimator's progress: called with the step just finished, the total, the running log Z
 * estimate (NaN where the method has none before it ends, e.g. reverse annealing) and the running
 * effective sample size. Called on the estimator's thread; must be cheap.
 */
@FunctionalInterface
public interface ProgressListener {
    /** Ignores progress. */
    ProgressListener NONE = (done, total, logZ, ess) -> { };

    void progress(long done, long total, double logZ, double ess);
}
