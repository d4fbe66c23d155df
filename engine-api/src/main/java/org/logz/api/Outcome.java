package org.logz.api;

import java.util.ArrayList;
import java.util.List;

import org.logz.estimate.Estimate;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.Warning;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.aisel.InnerChoice;
import org.logz.estimate.ep.ProbitEp;
import org.logz.estimate.smc.SmcSampler;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.estimate.work.HistogramGibbs;
import org.logz.model.Likelihood;
import org.logz.path.GpcSequence;
import org.logz.path.TemperedPath;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

/**
 * What {@link Estimation#outcome} ran: the replicates' result records (the family's type: an
 * {@code AnnealingResult}, {@code BidirectionalResult}, {@code TemperedResult}, {@code SequentialResult},
 * {@code SmcResult} or {@code ProbitEp.Result}; AISEL's are the SMC runs of its {@code AiselResult}s), the path they ran on (null
 * for the sequential methods and EP), the chain-transitions spent planning the schedule, the settings the defaults
 * resolved to, and the model's own warnings (an ill-conditioned covariance, a noisy likelihood).
 */
public record Outcome(List<? extends Estimate> runs, PathDescription path, long pilotSweeps, Plan plan,
                      List<Warning> modelWarnings) {
    public Outcome {
        runs = List.copyOf(runs);
        modelWarnings = List.copyOf(modelWarnings);
    }

    /** The path's description, where an RBM's base rate came from and a GP classifier's start; null where they do not apply. */
    /**
     * What each replicate hands back: its result record, or for aisel the whole {@link AiselResult} (whose
     * {@link AiselResult#smc()} is the run). The records of a distributed run travel as these.
     */
    public List<? extends Record> replicates() {
        return plan instanceof Plan.Aisel aisel ? aisel.results() : runs.stream().map(Record.class::cast).toList();
    }

    /**
     * This plan with other replicates' records (those {@link #replicates()} gives, in replicate order) in place of its
     * own: how a distributed run puts its tasks' records together with the plan the driver made. The aisel warning
     * of a noisy likelihood is the first replicate's, as in a single process.
     */
    public Outcome withReplicates(List<?> records) {
        if (plan instanceof Plan.Aisel aisel) {
            List<AiselResult> results = records.stream().map(AiselResult.class::cast).toList();
            List<Warning> warnings = modelWarnings;
            if (!results.isEmpty()) {
                AiselResult first = results.get(0);
                List<Warning> own = new ArrayList<>();
                first.inner().filter(InnerChoice::capped).ifPresent(c -> own.add(Warning.innerCapped(c.wanted(),
                        c.draws(), c.targetVariance())));
                if (first.variance() > Estimation.STICKY_VARIANCE) {
                    own.add(Warning.noisyLikelihood(first.variance(), first.likelihood().draws()));
                }
                warnings = List.copyOf(own);
            }
            return new Outcome(results.stream().map(AiselResult::smc).toList(), path, pilotSweeps,
                    new Plan.Aisel(aisel.steps(), aisel.scheme(), aisel.resampleThreshold(), aisel.proposal(),
                    results), warnings);
        }
        return new Outcome(records.stream().map(Estimate.class::cast).toList(), path, pilotSweeps, plan, modelWarnings);
    }

    public record PathDescription(String path, String baseRate, String base) {
        static PathDescription of(TemperedPath path) {
            return new PathDescription(path.description(),
                    path.model().baseRateSource(), path.model().baseName());
        }
    }

    /** The settings a family's run resolved from the options and the model's defaults. */
    public sealed interface Plan {
        /**
         * Annealing and the nonequilibrium estimators: the schedule, the reverse chains (0 for one direction), the
         * histogram's bootstrap resamples and its bins and Gibbs draws.
         */
        record Annealing(Schedule schedule, int reverseChains, int bootstraps, HistogramGibbs.Settings histogram)
                implements Plan {
        }

        /** Tempered sampling: the settings (of the first replicate; the others differ in their keys) and the prior's name. */
        record Tempered(TemperedSampling.Settings settings, String prior) implements Plan {
            /** The ladder of inverse temperatures. */
            public Schedule ladder() {
                return settings.ladder();
            }
        }

        /** Parallel tempering: the settings of the first replicate, with the ladder it starts from (the results hold the tuned one). */
        record ParallelTempering(org.logz.estimate.tempered.ParallelTempering.Settings settings) implements Plan {
            /** The ladder the tuning starts from. */
            public Schedule ladder() {
                return settings.ladder();
            }
        }

        /** Resample-Move and ARM: the unit order, the scheme, the settings, and a GP classifier's sequence (else null). */
        record Sequential(String order, ResamplingScheme scheme, ResampleMove.Settings settings, GpcSequence gpc)
                implements Plan {
        }

        /** The SMC sampler: the steps, the scheme and the ESS fraction below which it resamples. */
        record Smc(SmcSampler.Steps steps, ResamplingScheme scheme, double resampleThreshold) implements Plan {
        }

        /**
         * AISEL: the steps, the scheme, the resampling threshold, the inner estimator and each replicate's whole result
         * (its SMC run is in runs).
         */
        record Aisel(SmcSampler.Steps steps, ResamplingScheme scheme, double resampleThreshold, Likelihood.Proposal proposal,
                     List<AiselResult> results) implements Plan {
            public Aisel {
                results = List.copyOf(results);
            }
        }

        /** Expectation propagation: its settings. */
        record Ep(ProbitEp.Settings settings) implements Plan {
        }
    }
}
