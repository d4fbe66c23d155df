package org.logz.estimate.work;

import java.util.OptionalDouble;

import org.logz.estimate.Method;

/**
 * One estimate of {@code log(Z_1/Z_0)} from nonequilibrium work values, with its standard error where
 * the method has one.
 */
public record WorkEstimate(Method method, double logRatio, OptionalDouble stdErr) {
    public static WorkEstimate of(Method method, double logRatio, double stdErr) {
        return new WorkEstimate(method, logRatio, OptionalDouble.of(stdErr));
    }

    public static WorkEstimate of(Method method, double logRatio) {
        return new WorkEstimate(method, logRatio, OptionalDouble.empty());
    }
}
