package org.logz.estimate.smc;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import org.logz.estimate.Estimate;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;

/**
 * The outcome of an SMC sampler run: the SMC estimate and the two power-posterior estimates from the
 * same particles, one of which is the headline.
 *
 * @param method        the headline: {@code smc}, {@code power-posterior} or {@code power-posterior-corrected}
 * @param path          what was annealed
 * @param steps         how the inverse temperatures were chosen: a schedule's name or {@code adaptive:ρ}
 * @param particles     M
 * @param logZ0         exact log normalizer of the base
 * @param readings      every estimate of the run, in the order of {@link SmcSampler#ESTIMATORS}
 * @param resamplings   resampling events
 * @param transitions   Markov transitions × particles
 * @param lineages      with multinomial resampling: how many initial particles still have descendants (0 otherwise)
 * @param trace         one point per step, the first at β = 0
 * @param visitedBound  where Z sums over states: the largest {@code log f(x)} of the final particles
 * @param transferBytes bytes moved between host and backend during the run
 * @param posteriorMean the weighted mean of the final states' columns where the run was asked for it, else empty
 */
public record SmcResult(Method method, String backend, String path, String steps, int particles, double logZ0,
                        List<Reading> readings, int resamplings, int lineages, long transitions, long seed, double seconds,
                        List<SmcTracePoint> trace, OptionalDouble visitedBound, long transferBytes,
                        double[] posteriorMean) implements Estimate {
    /** One estimator's reading: log Z and its single-run standard error where it has a sound one. */
    public record Reading(Method method, double logZ, OptionalDouble stdErr) {
    }

    /** Surviving lineages below this fraction of the particles raise {@code lineages-coalesced}. */
    public static final double LINEAGE_FRACTION = 0.01;
    /**
     * Below this many particles the Lee-Whiteley error undercovers (a hostile review's 20-seed sweeps on the demo RBM:
     * RMS z-score 3.1 at M = 5, 1.9 at M = 64 with ρ = 0.7, 1.4-1.6 at M = 20-100; 1.1 at M = 500).
     */
    public static final int FEW_PARTICLES = 100;

    public SmcResult {
        readings = List.copyOf(readings);
        trace = List.copyOf(trace);
        posteriorMean = posteriorMean.clone();
    }

    /** The weighted mean of the final states' columns (empty unless the run was asked for it); a copy. */
    @Override
    public double[] posteriorMean() {
        return posteriorMean.clone();
    }

    /** The reading of {@code estimator}. */
    public Reading reading(Method estimator) {
        return readings.stream().filter(r -> r.method() == estimator).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("an SMC run has no " + estimator + " estimate"));
    }

    @Override
    public double logZ() {
        return reading(method).logZ();
    }

    @Override
    public OptionalDouble standardError() {
        return reading(method).stdErr();
    }

    /** The inverse temperatures the run visited, 0 first and 1 last. */
    public double[] betas() {
        return trace.stream().mapToDouble(SmcTracePoint::beta).toArray();
    }

    /** Steps from β = 0 to 1. */
    public int stepCount() {
        return trace.size() - 1;
    }

    /**
     * This result, or an {@link ImpossibleEstimateException} when the headline lies below {@code visitedBound}
     * by more than three standard errors.
     */
    public SmcResult requirePossible() {
        ImpossibleEstimateException.check(method, logZ(), standardError().orElse(0), visitedBound);
        return this;
    }

    /** {@code low-ess} where the reweighted particles' ESS fell below 10% at some step; the visited-bound warnings. */
    @Override
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>();
        trace.stream().skip(1).min(java.util.Comparator.comparingDouble(SmcTracePoint::ess))
                .filter(p -> Warning.lowEss(p.ess(), particles))
                .ifPresent(p -> out.add(Warning.lowStepEss(method, p.ess(), particles, p.beta())));
        if (particles < FEW_PARTICLES && standardError().isPresent()) {
            out.add(Warning.fewParticles(method, particles, FEW_PARTICLES));
        }
        if (lineages > 0 && lineages < Math.max(2, LINEAGE_FRACTION * particles)) {
            out.add(Warning.lineagesCoalesced(method, lineages, particles));
        }
        Reading headline = reading(method);
        List<String> others = new ArrayList<>();
        for (Reading r : readings) {
            if (r.method() != method && Warning.disagree(headline.logZ(), headline.stdErr().orElse(Double.NaN), r.logZ(),
                    r.stdErr().orElse(Double.NaN))) {
                others.add(String.format(java.util.Locale.ROOT, "%s %.4f", r.method(), r.logZ()));
            }
        }
        if (!others.isEmpty()) {
            out.add(Warning.estimatorsDisagree(method, headline.logZ(), String.join(", ", others)));
        }
        ImpossibleEstimateException.atBound(method, logZ(), visitedBound).ifPresent(out::add);
        return out;
    }
}
