package org.logz.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The outcome of Resample-Move or one of the ARM variants.
 *
 * <p>Construction throws {@link ImpossibleEstimateException} when {@code logZ} lies below {@code visitedBound} by
 * more than three standard errors.
 *
 * @param method          {@code rm}, {@code arm}, {@code arm-anticipate} or {@code arm-reseed}
 * @param backend         backend name
 * @param path            what was built up
 * @param logZ            the estimate {@code log Z_0 + Σ_n log Σ_r w̃_n^r W(x^r)} (ARM eq. 5)
 * @param stdErr          standard error of log Z: for one population the Lee &amp; Whiteley (2018) estimator, present
 *                        only where it is sound (Resample-Move with multinomial resampling); for islands the spread of
 *                        their estimates ({@link Islands})
 * @param ess             ESS of the final smoothed weights (of islands, their mean)
 * @param particles       the base number R (of each island)
 * @param islands         independent populations of R particles each (1: one population)
 * @param logZ0           exact {@code log Z_0}
 * @param particleSteps   Markov transitions applied to particles (moves, generated batches, reseeding chains)
 * @param resamplings     resampling events (of all islands)
 * @param meanParticles   average R_n over iterations (of islands, their mean)
 * @param seed            the run's Philox key
 * @param seconds         wall time
 * @param trace           per-iteration R_n, ESS, γ, resampling and increments (of islands, the one whose weights fell
 *                        lowest)
 * @param transferBytes   bytes moved between host and backend during the run
 * @param visitedBound    where Z sums over states: the largest {@code log Σ_{x_N} f(x)} over the final
 *                        particles (the last variable summed out), a lower bound of log Z
 * @param reseedLag       arm-reseed: the largest |z| of a reseeding batch's mean log f against the current set's
 *                        weighted mean (both should sample the same distribution); 0 for the other variants
 */
public record SequentialResult(Method method, String backend, String path, double logZ, OptionalDouble stdErr,
                               double ess, int particles, int islands, double logZ0, long particleSteps, int resamplings,
                               double meanParticles, long seed, double seconds, List<SequentialTracePoint> trace,
                               long transferBytes, OptionalDouble visitedBound, double reseedLag)
        implements Estimate {
    public SequentialResult {
        trace = List.copyOf(trace);
        ImpossibleEstimateException.check(method, logZ, stdErr.orElse(0), visitedBound);
    }

    @Override
    public OptionalDouble standardError() {
        return stdErr;
    }

    /** Theorem 1's optimal allocation of the run's particles against its own ({@link Allocation}). */
    public Allocation allocation() {
        return Allocation.of(trace);
    }

    /** The ESS below which a step's weights count as collapsed onto one particle. */
    static final double COLLAPSED_ESS = 1.5;

    /**
     * The |z| of a reseeding batch against the set beyond which its chains count as not mixed: one test per batch over
     * hundreds of batches, so far in the tail (a false alarm about once in 10^6 batches).
     */
    static final double RESEED_LAG = 5;

    /**
     * {@code weight-collapse} at the first variable whose smoothed weights had an ESS below
     * {@value #COLLAPSED_ESS}; {@code reseed-not-mixed} when a reseeding batch's log densities sat beyond
     * {@value #RESEED_LAG} standard errors from the set's; {@code single-state} when the estimate sits on the visited
     * bound.
     */
    @Override
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>();
        if (reseedLag > RESEED_LAG) {
            out.add(Warning.reseedNotMixed(reseedLag));
        }
        trace.stream().filter(p -> p.ess() < COLLAPSED_ESS).findFirst()
                .ifPresent(p -> out.add(Warning.weightCollapse(method, p.unit(), p.ess(), p.particles())));
        ImpossibleEstimateException.atBound(method, logZ, visitedBound).ifPresent(out::add);
        return out;
    }
}
