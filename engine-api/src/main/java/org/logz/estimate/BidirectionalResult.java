package org.logz.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

import org.logz.base.UserException;
import org.logz.estimate.work.Bar;
import org.logz.estimate.work.HistogramGibbs;
import org.logz.estimate.work.WorkEstimate;

/**
 * Forward and reverse annealing runs and every estimator read from their work values.
 * {@link #method()} names the headline estimator; each {@link WorkEstimate} holds
 * {@code log(Z_1/Z_0)}, and {@link #logZ(Method)} adds {@code log Z_0}.
 *
 * <p>Construction throws {@link ImpossibleEstimateException} when the headline estimate lies below a visited
 * state's log f by more than three standard errors.
 *
 * @param method    the headline estimator: a name of {@link #estimates()}
 * @param backend   backend name
 * @param path      what was annealed
 * @param logZ0     exact log normalizer of the base
 * @param forward   the forward (AIS) run
 * @param reverse   the reverse (RAISE) run
 * @param estimates lower-bound, upper-bound, jarzynski-forward, jarzynski-reverse, cumulant-forward,
 *                  cumulant-reverse, cumulant, bar and histogram
 * @param seed      the run's Philox key
 * @param overlap   overlap of the forward and reverse work ({@link Bar.Result#overlap()}); NaN where BAR failed
 * @param failures  {@code estimator-failed} warnings of estimators besides the headline that found no answer
 *                  (they are then missing from {@code estimates})
 * @param posterior the histogram-gibbs posterior of {@code log(Z_1/Z_0)} (empty where it could not be sampled)
 */
public record BidirectionalResult(Method method, String backend, String path, double logZ0, AnnealingResult forward,
                                  AnnealingResult reverse, List<WorkEstimate> estimates, long seed, double overlap,
                                  List<Warning> failures, Optional<HistogramGibbs.Posterior> posterior)
        implements Estimate {
    /** Headline estimators that rest on the overlap of the two work distributions. */
    private static final Set<Method> NEED_OVERLAP = Set.of(Method.BAR, Method.HISTOGRAM, Method.HISTOGRAM_GIBBS);

    /** Effective draws of the Gibbs chain below which histogram-gibbs's mean and interval are shaky. */
    static final double GIBBS_LOW_ESS = 100;

    public BidirectionalResult {
        estimates = List.copyOf(estimates);
        failures = List.copyOf(failures);
        WorkEstimate headline = find(estimates, method);
        ImpossibleEstimateException.check(method, logZ0 + headline.logRatio(), headline.stdErr().orElse(0),
                max(forward.visitedBound(), reverse.visitedBound()));
    }

    private static OptionalDouble max(OptionalDouble a, OptionalDouble b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : OptionalDouble.of(Math.max(a.getAsDouble(), b.getAsDouble()));
    }

    private static WorkEstimate find(List<WorkEstimate> estimates, Method name) {
        for (WorkEstimate e : estimates) {
            if (e.method() == name) {
                return e;
            }
        }
        throw new UserException("no work estimator named " + name);
    }

    /** Whether the run holds the named estimator ({@link #failures()} lists those that found no answer). */
    public boolean has(Method name) {
        return estimates.stream().anyMatch(e -> e.method() == name);
    }

    public WorkEstimate estimate(Method name) {
        return find(estimates, name);
    }

    /** log Z of the target by the named estimator. */
    public double logZ(Method name) {
        return logZ0 + estimate(name).logRatio();
    }

    @Override
    public OptionalDouble visitedBound() {
        return max(forward.visitedBound(), reverse.visitedBound());
    }

    /** The bounds themselves, which the bounds check does not hold to themselves. */
    private static final Set<Method> BOUNDS = Set.of(Method.LOWER_BOUND, Method.UPPER_BOUND);

    /** Headlines that read the forward work alone, and the reverse work alone. */
    private static final Set<Method> FORWARD_ONLY = Set.of(Method.LOWER_BOUND, Method.JARZYNSKI_FORWARD,
            Method.CUMULANT_FORWARD);
    private static final Set<Method> REVERSE_ONLY = Set.of(Method.UPPER_BOUND, Method.JARZYNSKI_REVERSE,
            Method.CUMULANT_REVERSE);

    /**
     * {@code low-ess} where the weights the headline reads rest on a few chains: a one-direction headline's own
     * weights; for BAR, the histogram and the combined cumulant estimators both directions' (each alone leaves the
     * other to carry the overlap; both low, the two work distributions meet only in tails few chains reach).
     */
    private Optional<Warning> lowEss() {
        boolean forwardLow = Warning.lowEss(forward.ess(), forward.chains());
        boolean reverseLow = Warning.lowEss(reverse.ess(), reverse.chains());
        if (FORWARD_ONLY.contains(method)) {
            return forwardLow ? Optional.of(Warning.lowEss(Method.AIS, forward.ess(), forward.chains()))
                    : Optional.empty();
        }
        if (REVERSE_ONLY.contains(method)) {
            return reverseLow ? Optional.of(Warning.lowEss(Method.RAISE, reverse.ess(), reverse.chains()))
                    : Optional.empty();
        }
        if (!forwardLow || !reverseLow) {
            return Optional.empty();
        }
        return Optional.of(new Warning("low-ess", String.format(Locale.ROOT, "%s: the forward "
                + "weights' ESS is %.1f of %d chains and the reverse weights' %.1f of %d (both below %.0f%%): the two work "
                + "distributions meet only in tails that few chains reach, so the estimate and its standard error rest on "
                + "those few and may be off by more than it says; anneal more slowly (--steps) or start the reverse chains "
                + "nearer the target", method, forward.ess(), forward.chains(), reverse.ess(), reverse.chains(),
                100 * Warning.LOW_ESS_FRACTION)));
    }

    /**
     * {@code poor-overlap} for BAR and the histogram estimator, {@code low-ess} where the weights it reads rest on few
     * chains, {@code outside-bounds} when the headline
     * leaves the bounds of Habeck eq. 7, {@code estimators-disagree} when the forward (AIS) and reverse (RAISE)
     * estimates differ beyond their errors (with the β range where the two directions' mean energies part: a bias
     * the runs share), {@code single-state} when the headline sits on the visited bound.
     */
    @Override
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>(failures);
        if (NEED_OVERLAP.contains(method) && overlap < Bar.MIN_OVERLAP) {
            out.add(Warning.poorOverlap(overlap, Bar.MIN_OVERLAP));
        }
        if (method == Method.HISTOGRAM_GIBBS) {
            posterior.filter(p -> p.ess() < GIBBS_LOW_ESS)
                    .ifPresent(p -> out.add(Warning.gibbsLowEss(p.ess(), p.draws().length)));
        }
        lowEss().ifPresent(out::add);
        double lower = logZ(Method.LOWER_BOUND);
        double upper = logZ(Method.UPPER_BOUND);
        double logZ = logZ();
        // the bounds are means over chains and hold in expectation: three of their standard errors of slack
        double lowerNoise = 3 * estimate(Method.LOWER_BOUND).stdErr().orElse(0);
        double upperNoise = 3 * estimate(Method.UPPER_BOUND).stdErr().orElse(0);
        if (method != Method.LOWER_BOUND && method != Method.UPPER_BOUND
                && Warning.beyondBounds(logZ, lower - lowerNoise, upper + upperNoise)) {
            out.add(Warning.outsideBounds(method, logZ, lower, upper));
        }
        // the JSON lists every estimator: one that leaves the bounds the headline is held to is wrong on this run
        String outside = estimates.stream().filter(e -> !BOUNDS.contains(e.method()) && e.method() != method
                        && Warning.beyondBounds(logZ(e.method()), lower - lowerNoise, upper + upperNoise))
                .map(e -> String.format(Locale.ROOT, "%s %.4f", e.method(), logZ(e.method())))
                .collect(Collectors.joining(", "));
        if (lower <= upper && !outside.isEmpty()) {
            out.add(Warning.secondaryOutsideBounds(outside, lower, upper, method));
        }
        WorkEstimate ais = estimate(Method.JARZYNSKI_FORWARD);
        WorkEstimate raise = estimate(Method.JARZYNSKI_REVERSE);
        if (Warning.disagree(ais.logRatio(), ais.stdErr().orElse(Double.NaN), raise.logRatio(),
                raise.stdErr().orElse(Double.NaN))) {
            out.add(Warning.directionsDisagree(logZ(Method.JARZYNSKI_FORWARD), ais.stdErr().orElse(Double.NaN),
                    logZ(Method.JARZYNSKI_REVERSE), raise.stdErr().orElse(Double.NaN),
                    Warning.lagBetween(forward.trace(), reverse.trace())));
        }
        ImpossibleEstimateException.atBound(method, logZ, visitedBound()).ifPresent(out::add);
        return out;
    }

    @Override
    public double logZ() {
        return logZ(method);
    }

    @Override
    public OptionalDouble standardError() {
        return estimate(method).stdErr();
    }

    @Override
    public double seconds() {
        return forward.seconds() + reverse.seconds();
    }

    /** Chain-sweeps of both directions. */
    public long sweeps() {
        return forward.sweeps() + reverse.sweeps();
    }
}
