package org.logz.base;

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

    /**
     * {@code listener} told of a run that is part {@code index} of {@code parts} equal parts of one estimate's work (a
     * forward pass, then a reverse pass), so that the whole estimate's progress runs once from 0 to 1.
     */
    static ProgressListener part(ProgressListener listener, int index, int parts) {
        return (done, total, logZ, ess) -> listener.progress(index * total + done, parts * total, logZ, ess);
    }
}
