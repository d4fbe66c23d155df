package org.logz.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The outcome of annealed importance sampling in either direction.
 *
 * @param method      {@code ais} (base to target) or {@code raise} (target to base)
 * @param backend     backend name
 * @param path        what was annealed
 * @param schedule    schedule name
 * @param logZ        estimate of the target's log Z
 * @param stdErr      delta-method standard error of {@code logZ} from the weights' spread
 * @param ess         effective sample size of the final weights
 * @param logZ0       exact log normalizer of the base
 * @param chains      number of chains
 * @param steps       number of annealing steps K
 * @param sweeps      chain-sweeps done: Markov transitions × chains (burn-in included)
 * @param seed        the run's Philox key
 * @param seconds     wall time
 * @param logWeights  final log importance weight of each chain: forward {@code Σ log f_k(x_{k-1}) - log f_{k-1}(x_{k-1})},
 *                    reverse {@code Σ log f_{k-1}(x_k) - log f_k(x_k)}; the work of chain r is {@code -logWeights[r]}
 * @param trace       running estimate and ESS along the schedule
 * @param start       how the chains were started ({@code base}, {@code exact}, {@code gibbs:B}, {@code data:G},
 *                    {@code forward:G}, or given states by their name, such as {@code ground:B})
 * @param transferBytes bytes moved between host and backend during the run
 * @param visitedBound  where Z sums over states: the largest {@code log f(x)} of the states the run ended
 *                      in (forward) or started from (reverse), a lower bound of log Z; empty otherwise
 * @param forwardStart  for a reverse run from a forward run's end states ({@code forward:G}), that forward run: an AIS
 *                      estimate of its own, independent of this one, which {@link #warnings} holds this one against
 */
public record AnnealingResult(Method method, String backend, String path, String schedule, double logZ, double stdErr,
                              double ess, double logZ0, int chains, int steps, long sweeps, long seed, double seconds,
                              double[] logWeights, List<TracePoint> trace, String start, long transferBytes,
                              OptionalDouble visitedBound, Optional<AnnealingResult> forwardStart) implements Estimate {
    public AnnealingResult {
        trace = List.copyOf(trace);
        logWeights = logWeights.clone();
    }

    /** A copy of the final log weights. */
    @Override
    public double[] logWeights() {
        return logWeights.clone();
    }

    /**
     * This result, or an {@link ImpossibleEstimateException} when {@code logZ} lies below {@code visitedBound}
     * by more than three standard errors.
     */
    public AnnealingResult requirePossible() {
        ImpossibleEstimateException.check(method, logZ, stdErr, visitedBound);
        return this;
    }

    @Override
    public OptionalDouble standardError() {
        return OptionalDouble.of(stdErr);
    }

    /**
     * {@code low-ess} below 10% of the chains, {@code single-state} when the estimate sits on the visited bound, and
     * {@code estimators-disagree} when a reverse run's estimate differs from the forward run it started from beyond
     * their errors. RAISE is biased high and AIS low by the same lag (Burda et al. 2015): a reverse start that missed
     * the posterior gives a confident RAISE with a healthy ESS, and only the forward estimate beside it shows the gap
     * (the hostile review's GP classifiers, RAISE a nat above AIS, BAR and SMC).
     */
    @Override
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>();
        if (Warning.lowEss(ess, chains)) {
            out.add(Warning.lowEss(method, ess, chains));
        }
        ImpossibleEstimateException.atBound(method, logZ, visitedBound).ifPresent(out::add);
        forwardStart.filter(f -> Warning.disagree(f.logZ(), f.stdErr(), logZ, stdErr)).ifPresent(f -> out.add(
                Warning.directionsDisagree(f.logZ(), f.stdErr(), logZ, stdErr, Warning.lagBetween(f.trace(), trace))));
        return out;
    }

    @Override
    public Optional<AnnealingResult> heldAgainst() {
        return forwardStart;
    }

    /** This reverse run with the forward run whose end states it started from. */
    AnnealingResult startedFrom(AnnealingResult forward) {
        return new AnnealingResult(method, backend, path, schedule, logZ, stdErr, ess, logZ0, chains, steps, sweeps, seed,
                seconds, logWeights, trace, start, transferBytes, visitedBound, Optional.of(forward));
    }

    /** Work values {@code W = -log w} in the convention of pymbar and Habeck (2017). */
    public double[] work() {
        double[] w = new double[logWeights.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = -logWeights[i];
        }
        return w;
    }
}
