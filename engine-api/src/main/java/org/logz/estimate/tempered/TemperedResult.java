package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import org.logz.estimate.Estimate;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;

/**
 * The outcome of one Rao-Blackwellized tempered sampling run and every estimator read from its
 * samples. {@link #method()} names the headline estimate; {@link #estimates()} holds them all.
 *
 * <p>Construction throws {@link ImpossibleEstimateException} when the headline estimate lies below {@code
 * visitedBound} by more than three standard errors.
 *
 * @param method          the headline estimator, one of {@link TemperedSampling.Settings#ESTIMATORS}
 * @param backend         backend name
 * @param path            what was tempered
 * @param logZ0           exact log normalizer of the base (β = 0)
 * @param estimates       one per {@link TemperedSampling.Settings#ESTIMATORS}, in that order (MBAR when samples were
 *                        kept)
 * @param levelBetas      the ladder
 * @param logPrior        log r_k
 * @param occupancy       ĉ_k of the final run (eq. 9); close to r_k when the run mixed over the ladder
 * @param visits          how often each level was visited in the final run
 * @param initialLogZ     log Ẑ_k before the initial rounds (from a forward annealing pass over the ladder, or log Z_0
 *                        everywhere for the Ẑ = 1 start)
 * @param initialRounds   initial rounds run (§2.4)
 * @param converged       whether the rounds met {@code max_k |r_k - ĉ_k| < 0.1/K} before the cap
 * @param finalDeviation  {@code max_k |r_k - ĉ_k|} of the last initial round
 * @param chains          parallel chains
 * @param batches         groups of chains behind the standard errors (batch means over chains)
 * @param deltaMethod     eq. 16's approximate bias and standard error of the RTS estimate at β = 1
 * @param mbarSamples     stored states MBAR was solved on (0: MBAR not run)
 * @param mbarResidual    MBAR's self-consistency residual (NaN when MBAR was not run)
 * @param sweeps          chain-sweeps done: Markov transitions × chains, initialization included
 * @param seed            the run's Philox key
 * @param seconds         wall time
 * @param transferBytes   bytes moved between host and backend during the run
 * @param visitedBound    where Z sums over states: the largest {@code log f_1(x)} over the final states
 */
public record TemperedResult(Method method, String backend, String path, double logZ0, List<LevelEstimate> estimates,
                             double[] levelBetas, double[] logPrior, double[] occupancy, long[] visits,
                             double[] initialLogZ, int initialRounds, boolean converged, double finalDeviation,
                             int chains, int batches, DeltaMethod deltaMethod, int mbarSamples, double mbarResidual,
                             long sweeps, long seed, double seconds, long transferBytes, OptionalDouble visitedBound) implements Estimate {
    /** The stop rule of the initial rounds (Carlson et al. §2.4): {@code max_k |r_k - ĉ_k| < 0.1/K}. */
    public static final double STOP = 0.1;

    public TemperedResult {
        estimates = List.copyOf(estimates);
        levelBetas = levelBetas.clone();
        logPrior = logPrior.clone();
        occupancy = occupancy.clone();
        visits = visits.clone();
        initialLogZ = initialLogZ.clone();
        LevelEstimate headline = LevelEstimate.find(estimates, method, "tempered");
        ImpossibleEstimateException.check(method, headline.logZ(), headline.stdErr(), visitedBound);
    }

    /** A copy of the ladder. */
    @Override
    public double[] levelBetas() {
        return levelBetas.clone();
    }

    /** A copy of the log prior over levels. */
    @Override
    public double[] logPrior() {
        return logPrior.clone();
    }

    /** A copy of the Rao-Blackwellized occupancy. */
    @Override
    public double[] occupancy() {
        return occupancy.clone();
    }

    /** A copy of the visit counts. */
    @Override
    public long[] visits() {
        return visits.clone();
    }

    /** A copy of the initial rounds' log Z estimates. */
    @Override
    public double[] initialLogZ() {
        return initialLogZ.clone();
    }

    /** The estimate of one method; an {@link IllegalArgumentException} when the run did not produce it. */
    public LevelEstimate estimate(Method name) {
        return LevelEstimate.find(estimates, name, "tempered");
    }

    /**
     * {@code rts-not-converged} when initial rounds ran and missed their stop rule, {@code mbar-not-converged}
     * when MBAR was solved and its residual is above 1e-8, {@code single-state} when the headline sits on
     * the visited bound.
     */
    @Override
    public List<Warning> warnings() {
        List<Warning> out = new ArrayList<>();
        if (initialRounds > 0 && !converged) {
            out.add(Warning.temperingNotConverged(initialRounds, finalDeviation, STOP / levelBetas.length));
        }
        if (mbarSamples > 0 && !(mbarResidual <= 1e-8)) {
            out.add(Warning.mbarNotConverged(mbarResidual));
        }
        int unvisited = 0;
        for (long v : visits) {
            unvisited += v == 0 ? 1 : 0;
        }
        if (unvisited > 0) {
            out.add(Warning.levelsUnvisited(unvisited, visits.length));
        }
        LevelEstimate.disagreement(estimates, method, "tempered").ifPresent(out::add);
        ImpossibleEstimateException.atBound(method, logZ(), visitedBound).ifPresent(out::add);
        return out;
    }

    @Override
    public double logZ() {
        return estimate(method).logZ();
    }

    /**
     * The headline's batch-means error; none where every group of chains gave the same number (two chains on two
     * levels that never left them), which measures nothing.
     */
    @Override
    public OptionalDouble standardError() {
        double se = estimate(method).stdErr();
        return se > 0 ? OptionalDouble.of(se) : OptionalDouble.empty();
    }
}
