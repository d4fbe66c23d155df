package org.logz.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.LongFunction;

import org.logz.backend.WeightSummary;
import org.logz.base.UserException;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;

/**
 * Independent replicates of one estimator (different Philox keys, {@link Philox#replicateSeed}),
 * combined as {@code log mean Ẑ}: the unbiased Ẑ of each run averaged, which keeps the estimate's
 * bias as small as one run with B times the particles would.
 *
 * <p>Construction throws {@link ImpossibleEstimateException} when {@code logZ} lies below a state some replicate
 * visited by more than three standard errors.
 *
 * @param runs      the replicates, replicate 0 first (its key is the seed itself)
 * @param logZ      {@code log((1/B) Σ_b Ẑ_b)}
 * @param stdErr    delta-method standard error of {@code logZ}: the spread of the Ẑ_b over their
 *                  mean, divided by √B
 * @param meanLogZ  {@code (1/B) Σ_b log Ẑ_b}
 * @param sdLogZ    sample standard deviation of the {@code log Ẑ_b}
 */
public record Replicates<E extends Estimate>(List<E> runs, double logZ, double stdErr, double meanLogZ, double sdLogZ) {
    public Replicates {
        runs = List.copyOf(runs);
        OptionalDouble bound = runs.stream().map(Estimate::visitedBound).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).max();
        ImpossibleEstimateException.check("the mean of " + runs.size() + " replicates", logZ, stdErr, bound);
    }

    /**
     * Every replicate's warnings, each message prefixed with the replicate it came from, and {@code
     * estimators-disagree} when the pooled estimate differs from the pooled estimates its replicates are held against
     * ({@link Estimate#heldAgainst}): a gap that hides within one replicate's error shows in B replicates' (the hostile
     * review's n30_hard classifier, RAISE 4-6 of its errors high at seeds whose forward run was within them).
     */
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>();
        for (int b = 0; b < runs.size(); b++) {
            for (Warning w : runs.get(b).warnings()) {
                out.add(new Warning(w.code(), "replicate " + (b + 1) + " of " + runs.size() + ": " + w.message()));
            }
        }
        double[] against = runs.stream().map(Estimate::heldAgainst).flatMap(Optional::stream)
                .mapToDouble(Estimate::logZ).toArray();
        if (runs.size() > 1 && against.length == runs.size()) {
            WeightSummary pooled = pool(against);
            if (Warning.disagree(pooled.logMean(), pooled.logMeanStdErr(), logZ, stdErr)) {
                out.add(Warning.directionsDisagree(pooled.logMean(), pooled.logMeanStdErr(), logZ, stdErr, "pooled over "
                        + runs.size() + " replicates"));
            }
        }
        return out;
    }

    /** Runs {@code count} replicates of {@code estimator}, which gets each replicate's key. */
    public static <E extends Estimate> Replicates<E> run(int count, long seed, LongFunction<E> estimator) {
        if (count < 2) {
            throw new UserException("replicates need at least 2 runs for a standard error, got " + count);
        }
        List<E> runs = new ArrayList<>(count);
        for (int b = 0; b < count; b++) {
            runs.add(estimator.apply(Philox.replicateSeed(seed, b)));
        }
        return of(runs);
    }

    /**
     * The factor {@code √((B - 1)/(B - 3))} that gives z-scores against the spread of B independent estimates unit
     * variance: with B - 1 degrees of freedom they follow Student's t, whose variance is (B - 1)/(B - 3). Defined for
     * B of at least 4.
     */
    public static double studentScale(int count) {
        if (count < 4) {
            throw new IllegalArgumentException("Student's t has a finite variance from 4 estimates, got " + count);
        }
        return Math.sqrt((count - 1.0) / (count - 3.0));
    }

    /** Combines finished runs. */
    public static <E extends Estimate> Replicates<E> of(List<E> runs) {
        if (runs.isEmpty()) {
            throw new UserException("replicates need at least one run, got none");
        }
        int b = runs.size();
        double[] logZ = runs.stream().mapToDouble(Estimate::logZ).toArray();
        double mean = 0;
        for (int i = 0; i < b; i++) {
            mean += logZ[i] / b;
        }
        double var = 0;
        for (double z : logZ) {
            var += (z - mean) * (z - mean) / (b - 1);
        }
        WeightSummary s = pool(logZ);
        return new Replicates<>(runs, s.logMean(), s.logMeanStdErr(), mean, Math.sqrt(var));
    }

    /** The log mean of the estimates {@code exp(logZ)} and its delta-method standard error. */
    private static WeightSummary pool(double[] logZ) {
        double[] twice = new double[logZ.length];
        for (int i = 0; i < logZ.length; i++) {
            twice[i] = 2 * logZ[i];
        }
        return new WeightSummary(logZ.length, LogSpace.logSumExp(logZ), LogSpace.logSumExp(twice));
    }
}
