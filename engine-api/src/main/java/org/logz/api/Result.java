package org.logz.api;

import java.util.List;
import java.util.OptionalDouble;

import org.logz.estimate.Estimate;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;

/**
 * One run's estimate as {@code logz estimate} reports it: the method's result record ({@link #run()}: its trace,
 * ESS and work done) with every warning the command line prints, those of the run's own diagnostics and those of
 * the model (its bound on log Z, an ill-conditioned covariance, a noisy likelihood).
 */
public record Result(Estimate run, List<Warning> warnings) implements Estimate {
    public Result {
        warnings = List.copyOf(warnings);
    }

    @Override
    public Method method() {
        return run.method();
    }

    @Override
    public String backend() {
        return run.backend();
    }

    @Override
    public double logZ() {
        return run.logZ();
    }

    @Override
    public long seed() {
        return run.seed();
    }

    @Override
    public double seconds() {
        return run.seconds();
    }

    @Override
    public OptionalDouble standardError() {
        return run.standardError();
    }

    @Override
    public OptionalDouble visitedBound() {
        return run.visitedBound();
    }
}
