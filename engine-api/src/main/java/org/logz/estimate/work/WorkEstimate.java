package org.logz.estimate.work;

import java.util.OptionalDouble;

/**
 * One estimate of {@code log(Z_1/Z_0)} from nonequilibrium work values, with its standard error where
 * the method has one.
 */
public record WorkEstimate(String name, double logRatio, OptionalDouble stdErr) {
    public static WorkEstimate of(String name, double logRatio, double stdErr) {
        return new WorkEstimate(name, logRatio, OptionalDouble.of(stdErr));
    }

    public static WorkEstimate of(String name, double logRatio) {
        return new WorkEstimate(name, logRatio, OptionalDouble.empty());
    }
}
