package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.logz.estimate.Estimate;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;

/**
 * The outcome of one parallel tempering run ({@link ParallelTempering}) and the estimators read from its samples.
 *
 * <p>Construction throws {@link ImpossibleEstimateException} when the headline estimate lies below {@code
 * visitedBound} by more than three standard errors.
 *
 * @param headline        the estimator of the headline (the acceptance ratio between neighbouring levels)
 * @param backend         backend name
 * @param path            what was tempered
 * @param logZ0           exact log normalizer of the base (β = 0)
 * @param estimates       BAR between neighbouring levels, TI and (when samples were kept) MBAR, each with its curve
 * @param levelBetas      the ladder of the final run (tuned)
 * @param meanSlope       per level, the mean {@code d log f_β/dβ} of the states drawn there (minus the mean energy)
 * @param swapRates       per neighbouring pair (β_k, β_{k+1}), the fraction of proposed swaps accepted in the final run
 * @param barrier         the communication barrier {@code Λ = Σ_k (1 - swap rate)} (Syed et al. 2021)
 * @param roundTrips      per ladder, the round trips (β = 0 to 1 and back) its replicas made in the final run
 * @param tuningBarriers  the barrier measured in each tuning round, before the ladder moved
 * @param ladders         independent ladders M
 * @param chains          chains N = M·K
 * @param sweeps          iterations of the final run
 * @param mbarSamples     stored states MBAR was solved on (0: MBAR not run)
 * @param mbarResidual    MBAR's self-consistency residual (NaN when MBAR was not run)
 * @param transitions     chain-transitions done, warm-up and tuning included
 * @param seed            the run's Philox key
 * @param seconds         wall time
 * @param transferBytes   bytes moved between host and backend during the run
 * @param visitedBound    where Z sums over states: the largest {@code log f_1(x)} over the final states
 */
public record PtResult(Method headline, String backend, String path, double logZ0, List<LevelEstimate> estimates,
                       double[] levelBetas, double[] meanSlope, double[] swapRates, double barrier, long[] roundTrips,
                       double[] tuningBarriers, int ladders, int chains, int sweeps, int mbarSamples, double mbarResidual,
                       long transitions, long seed, double seconds, long transferBytes, OptionalDouble visitedBound)
        implements Estimate {

    public PtResult {
        estimates = List.copyOf(estimates);
        levelBetas = levelBetas.clone();
        meanSlope = meanSlope.clone();
        swapRates = swapRates.clone();
        roundTrips = roundTrips.clone();
        tuningBarriers = tuningBarriers.clone();
        LevelEstimate h = LevelEstimate.find(estimates, headline, "parallel tempering");
        ImpossibleEstimateException.check(headline, h.logZ(), h.stdErr(), visitedBound);
    }

    /** Parallel tempering; {@link #headline()} names the estimator behind its log Z. */
    @Override
    public Method method() {
        return Method.PT;
    }

    @Override
    public double[] levelBetas() {
        return levelBetas.clone();
    }

    @Override
    public double[] meanSlope() {
        return meanSlope.clone();
    }

    @Override
    public double[] swapRates() {
        return swapRates.clone();
    }

    @Override
    public long[] roundTrips() {
        return roundTrips.clone();
    }

    @Override
    public double[] tuningBarriers() {
        return tuningBarriers.clone();
    }

    /** The estimate of one estimator; a {@link org.logz.base.UserException} when the run did not produce it. */
    public LevelEstimate estimate(Method name) {
        return LevelEstimate.find(estimates, name, "parallel tempering");
    }

    /** All round trips of the final run. */
    public long totalRoundTrips() {
        long sum = 0;
        for (long r : roundTrips) {
            sum += r;
        }
        return sum;
    }

    /**
     * {@code poor-swaps} when a neighbouring pair swapped in fewer than {@value ParallelTempering#POOR_SWAP_RATE} of
     * its proposals, {@code no-round-trip} when some ladder's replicas made no round trip in the final run (its samples
     * at β = 1 never met the base's: its estimate and the spread behind the standard error say little),
     * {@code mbar-not-converged}, {@code estimators-disagree} when an estimator differs from the headline beyond their
     * errors, and the
     * visited-state bound's warnings.
     */
    @Override
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>();
        int worst = -1;
        for (int j = 0; j < swapRates.length; j++) {
            if (!(swapRates[j] >= ParallelTempering.POOR_SWAP_RATE) && (worst < 0 || !(swapRates[j] >= swapRates[worst]))) {
                worst = j;
            }
        }
        if (worst >= 0) {
            out.add(new Warning("poor-swaps", String.format(Locale.ROOT, "pt: replicas swapped between β = %.4g and %.4g "
                    + "in %.3g of the proposals (below %.2f): the ladder is too coarse there, so the levels above and below "
                    + "barely exchange states and the estimate may miss what one side holds; use more --levels or "
                    + "--rounds of tuning", levelBetas[worst], levelBetas[worst + 1], swapRates[worst],
                    ParallelTempering.POOR_SWAP_RATE)));
        }
        int stuck = 0;
        for (long r : roundTrips) {
            stuck += r == 0 ? 1 : 0;
        }
        if (stuck > 0) {
            out.add(new Warning("no-round-trip", String.format(Locale.ROOT, "pt: in %d of %d ladders no replica went from "
                    + "β = 0 to β = 1 and back during the final run (%d round trips in all): the states at β = 1 have not "
                    + "met fresh draws from the base, so the estimate and its standard error rest on where the chains "
                    + "started; run more --sweeps, or more --levels if swaps are rare", stuck, ladders,
                    totalRoundTrips())));
        }
        if (mbarSamples > 0 && !(mbarResidual <= 1e-8)) {
            out.add(Warning.mbarNotConverged(mbarResidual));
        }
        LevelEstimate.disagreement(estimates, headline, "parallel tempering").ifPresent(out::add);
        ImpossibleEstimateException.atBound(headline, logZ(), visitedBound).ifPresent(out::add);
        return out;
    }

    @Override
    public double logZ() {
        return estimate(headline).logZ();
    }

    @Override
    public OptionalDouble standardError() {
        return OptionalDouble.of(estimate(headline).stdErr());
    }
}
