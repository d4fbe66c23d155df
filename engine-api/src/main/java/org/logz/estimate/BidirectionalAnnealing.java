package org.logz.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.checkpoint.BidirectionalCheckpoints;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.estimate.work.Bar;
import org.logz.estimate.work.HistogramGibbs;
import org.logz.estimate.work.WorkEstimate;
import org.logz.estimate.work.WorkEstimators;
import org.logz.estimate.work.WorkHistogram;
import org.logz.memory.Footprint;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * Forward and reverse annealing on one path, read by every nonequilibrium estimator of Habeck (2017):
 * the bounds of eq. 7, the Jarzynski estimators both ways (AIS and RAISE), the cumulant estimators of
 * eq. 12 and 13, BAR (eq. 14) and the histogram estimator (§5.3). Forward work {@code wF} is
 * {@code -log w} of the forward chains, reverse work {@code wR} of the reverse chains (pymbar's
 * convention); the reverse chains run under a key derived from the seed, so the two sets are independent.
 */
public final class BidirectionalAnnealing {
    /**
     * @param forwardChains chains annealed from the base to the target
     * @param reverseChains chains annealed from the target down to the base (counts may differ)
     * @param schedule      the inverse temperatures, walked up by forward and down by reverse chains
     * @param bootstraps    bootstrap resamples behind the histogram estimator's standard error
     * @param seed          Philox key
     * @param headline      the estimator the result reports as its estimate: bar, cumulant, histogram, or any
     *                      other name of {@link BidirectionalResult#estimates()}
     * @param histogram     the density of states' bins (histogram and histogram-gibbs) and the Gibbs sampler's draws
     */
    public record Settings(int forwardChains, int reverseChains, Schedule schedule, int bootstraps, long seed,
                           Method headline, HistogramGibbs.Settings histogram) {
        /** The estimators a result holds, in order. */
        public static final List<Method> ESTIMATORS = List.of(Method.LOWER_BOUND, Method.UPPER_BOUND,
                Method.JARZYNSKI_FORWARD, Method.JARZYNSKI_REVERSE, Method.CUMULANT_FORWARD, Method.CUMULANT_REVERSE,
                Method.CUMULANT, Method.BAR, Method.HISTOGRAM, Method.HISTOGRAM_GIBBS);

        public Settings {
            if (!ESTIMATORS.contains(headline)) {
                throw new UserException("no work estimator named " + headline + "; use one of " + ESTIMATORS);
            }
            if (forwardChains < 2 || reverseChains < 2) {
                throw new UserException("forward and reverse annealing need at least 2 chains each, got "
                        + forwardChains + " and " + reverseChains);
            }
            if (bootstraps < 2) {
                throw new UserException("the histogram estimator needs at least 2 bootstrap resamples, got "
                        + bootstraps);
            }
        }

        /** The binless density of states and the Gibbs sampler's default draws. */
        public Settings(int forwardChains, int reverseChains, Schedule schedule, int bootstraps, long seed,
                        Method headline) {
            this(forwardChains, reverseChains, schedule, bootstraps, seed, headline, HistogramGibbs.Settings.DEFAULT);
        }

        /** BAR as the headline. */
        public Settings(int forwardChains, int reverseChains, Schedule schedule, int bootstraps, long seed) {
            this(forwardChains, reverseChains, schedule, bootstraps, seed, Method.BAR);
        }
    }

    private final Settings settings;
    private final Checkpointing checkpoints;

    public BidirectionalAnnealing(Settings settings) {
        this(settings, Checkpointing.NONE);
    }

    /**
     * A run that saves both passes' states to one file, {@code checkpoints.save()}, as it goes and resumes from
     * {@code checkpoints.resume()} ({@link BidirectionalCheckpoints}); a resumed run gives the bits of the uninterrupted one.
     */
    public BidirectionalAnnealing(Settings settings, Checkpointing checkpoints) {
        this.settings = settings;
        this.checkpoints = checkpoints;
    }

    /** Runs both directions, the reverse chains from {@code start}, and applies every estimator. */
    public BidirectionalResult run(TemperedPath path, AnnealedImportanceSampling.Start start, ProgressListener listener) {
        BidirectionalCheckpoints stores = new BidirectionalCheckpoints(checkpoints);
        var forwardRun = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(settings.forwardChains(),
                settings.schedule(), settings.seed()), stores.forward());
        var reverseRun = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(settings.reverseChains(),
                settings.schedule(), settings.seed()), stores.reverse());
        long works = (long) settings.forwardChains() + settings.reverseChains();
        // the directions run one after the other; the work of both and the bootstrap estimates stay on the heap
        Footprint footprint = forwardRun.footprint(path).max(reverseRun.footprint(path))
                .plus(Footprint.heap(Footprint.times(works, 40) + Footprint.times(settings.bootstraps(), 8)));
        path.backend().require(footprint, "forward and reverse annealing with " + works + " chains and "
                + settings.bootstraps() + " bootstraps on " + path.description());
        AnnealingResult forward;
        AnnealingResult reverse;
        if (start instanceof AnnealedImportanceSampling.Start.Forward f) {
            // the reverse start's own forward pass: three passes in all
            forward = forwardRun.annealForward(path, ProgressListener.part(listener, 0, 3));
            AnnealedImportanceSampling.ForwardEnd end = reverseRun.forwardStart(path, ProgressListener.part(listener, 1, 3));
            reverse = reverseRun.annealReverse(path, f, end, ProgressListener.part(listener, 2, 3));
        } else {
            forward = forwardRun.annealForward(path, ProgressListener.part(listener, 0, 2));
            reverse = reverseRun.annealReverse(path, start, ProgressListener.part(listener, 1, 2));
        }
        return estimate(forward, reverse);
    }

    /** The warning for estimators that failed, or {@code failure} itself where one of them is the headline. */
    private Warning secondary(Set<Method> failed, EstimationException failure) {
        if (failed.contains(settings.headline())) {
            throw failure;
        }
        return Warning.estimatorFailed(failed, settings.headline(), failure.getMessage());
    }

    /**
     * {@code coarse-bins} where binning moved the histogram estimate from the binless one (BAR, which it equals
     * without bins) by more than two of their standard errors: the bins are too wide for the work distributions.
     */
    private static Optional<Warning> coarseBins(double width, WorkEstimate histogram, List<WorkEstimate> estimates) {
        if (width == 0) {
            return Optional.empty();
        }
        WorkEstimate bar = estimates.stream().filter(e -> e.method() == Method.BAR).findFirst().orElseThrow();
        double shift = histogram.logRatio() - bar.logRatio();
        double error = Math.max(histogram.stdErr().orElse(0), bar.stdErr().orElse(0));
        return Math.abs(shift) > 2 * error ? Optional.of(Warning.coarseBins(width, shift, error)) : Optional.empty();
    }

    /**
     * Every estimator on the forward and reverse runs of these settings (whole, or each put together from its parts by
     * {@link AnnealedImportanceSampling#combine}).
     */
    public BidirectionalResult estimate(AnnealingResult forward, AnnealingResult reverse) {
        if (forward.method() != Method.AIS || reverse.method() != Method.RAISE || forward.chains() != settings.forwardChains()
                || reverse.chains() != settings.reverseChains() || forward.seed() != settings.seed()
                || reverse.seed() != settings.seed()) {
            throw new IllegalArgumentException("not the forward and reverse runs of these settings: " + forward.method()
                    + " with " + forward.chains() + " chains and " + reverse.method() + " with " + reverse.chains());
        }
        double[] wF = forward.work();
        double[] wR = reverse.work();
        List<WorkEstimate> estimates = new ArrayList<>(List.of(WorkEstimators.lowerBound(wF),
                WorkEstimators.upperBound(wR), WorkEstimators.jarzynskiForward(wF), WorkEstimators.jarzynskiReverse(wR),
                WorkEstimators.cumulantForward(wF), WorkEstimators.cumulantReverse(wR), WorkEstimators.cumulant(wF, wR)));
        // BAR and the histogram estimator need overlapping work (Potts across its first-order transition may have
        // none): where the headline is another estimator, their failure is a warning and the headline stands
        List<Warning> failures = new ArrayList<>();
        double overlap = Double.NaN;
        try {
            Bar.Result bar = Bar.solve(wF, wR);
            estimates.add(WorkEstimate.of(Method.BAR, bar.logRatio(), bar.stdErr()));
            overlap = bar.overlap();
        } catch (EstimationException e) {
            // the histogram estimators rest on the same overlap: without BAR's root they have none either
            failures.add(secondary(Set.of(Method.BAR, Method.HISTOGRAM, Method.HISTOGRAM_GIBBS), e));
        }
        HistogramGibbs.Posterior posterior = null;
        if (failures.isEmpty()) {
            HistogramGibbs.Settings h = settings.histogram();
            try {
                WorkEstimate histogram = WorkEstimators.histogram(wF, wR, h.binWidth(), settings.bootstraps(),
                        settings.seed());
                estimates.add(histogram);
                coarseBins(h.binWidth(), histogram, estimates).ifPresent(failures::add);
                posterior = HistogramGibbs.sample(WorkHistogram.binned(wF, wR, h.binWidth()), h, settings.seed());
                estimates.add(posterior.estimate());
            } catch (EstimationException e) {
                failures.add(secondary(Set.of(Method.HISTOGRAM, Method.HISTOGRAM_GIBBS), e));
            }
        }
        return new BidirectionalResult(settings.headline(), forward.backend(), forward.path(), forward.logZ0(), forward,
                reverse, estimates, settings.seed(), overlap, failures, Optional.ofNullable(posterior));
    }
}
