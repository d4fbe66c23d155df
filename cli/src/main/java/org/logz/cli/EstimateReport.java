package org.logz.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

import org.logz.estimate.Allocation;
import org.logz.estimate.Method;
import org.logz.estimate.SequentialTracePoint;
import org.logz.estimate.TracePoint;
import org.logz.estimate.Warning;
import org.logz.estimate.tempered.DeltaMethod;
import org.logz.estimate.work.HistogramGibbs;
import org.logz.model.AnnealedMarginal;
import org.logz.problem.Problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The report of {@code logz estimate}, written by Jackson in component order: the method, the
 * problem, the headline estimate, the family's {@link Details}, then what every run has. Components
 * that only some runs have (a base rate, replicates, an exact answer) are left out when null; a
 * missing single-run standard error is written as null.
 *
 * @param path      the tempered path's description; null for the sequential methods
 * @param baseRate  where an RBM's base rate came from; null for other models
 * @param base      where a GP classifier's tempered path starts, prior or ep; null for other models and methods
 * @param stderr    the headline's standard error, null where one run of the method has none
 * @param convention log Z as papers write this model's (Habeck's Potts: log Z - N ln q), null where there is one form
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record EstimateReport(Method method, @JsonUnwrapped Problem.Description problem, String path, String baseRate,
                      String base, double logZ, @JsonInclude(JsonInclude.Include.ALWAYS) Double stderr, String stderrMethod,
                      @JsonUnwrapped Details details, String backend, Spark spark, long seed, Double meanLogZ, Double sdLogZ,
                      List<Json.Replicate> replicates, Double exactLogZ, Double error, Convention convention, double seconds,
                      List<Warning> warnings) {

    /**
     * Where a {@code --spark} run ran: the master, the number of tasks, and the parts each run's chains were split into
     * (1 where the tasks ran whole replicates).
     */
    record Spark(String master, int tasks, int chainParts) {
    }

    /**
     * {@code logZ} less the term papers drop ({@link Problem#convention()}: {@code term} = N ln q, worth {@code offset}),
     * and the exact value's where there is one.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Convention(String term, double offset, double logZ, Double exactLogZ) {
        static Convention of(Problem problem, double logZ, Double exact) {
            return problem.convention().map(c -> new Convention(c.term(), c.offset(), logZ - c.offset(),
                    exact == null ? null : exact - c.offset())).orElse(null);
        }

        /** The text report's line under the headline, nothing where there is no convention. */
        static void print(PrintWriter out, Convention c) {
            if (c != null) {
                out.printf(Locale.ROOT, "         log Z - %s = %.4f%s (%s = %.4f)%n", c.term(), c.logZ(),
                        c.exactLogZ() == null ? "" : String.format(Locale.ROOT, ", exact %.4f", c.exactLogZ()), c.term(),
                        c.offset());
            }
        }
    }

    /** What one method family adds to the report, between the headline and the backend. */
    sealed interface Details permits Annealing, Work, Tempered, ParallelTempering, Sequential, Smc, Aisel, Ep {
    }

    /**
     * {@code ep} and {@code ep-corrected}: sweeps run, the last largest site change and the convergence tolerance; the
     * posterior approximation q itself is not written; for ep-corrected EP's own log Z and the correction's order-3 and
     * order-4 terms.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Ep(int sweeps, double lastChange, double tolerance, double damping, Double epLogZ, Double order3,
              Double order4) implements Details {
    }

    /**
     * {@code ais} and {@code raise}; {@code sweeps} counts the chain-transitions of the runs and of a VAROPT
     * schedule's pilot, {@code pilotSweeps} the pilot's alone (null without one); {@code forwardStart} the AIS estimate
     * of the forward run whose end states started a reverse run (null for other starts); {@code lag} the chains'
     * marginal against the path's equilibrium at every step where the model has both in closed form (the Gaussian toy).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Annealing(double ess, int chains, int steps, String schedule, String start, long sweeps, Long pilotSweeps,
                     double logZ0, Json.Estimate forwardStart, List<TracePoint> trace, List<AnnealedMarginal> lag)
            implements Details {
    }

    /** {@code bar}, {@code cumulant} and {@code histogram}: every work estimator's reading; sweeps as for annealing. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Work(Map<Method, Json.Estimate> estimates, int forwardChains, int reverseChains, int steps, String schedule,
                String start, int bootstraps, long sweeps, Long pilotSweeps, double logZ0, GibbsPosterior posterior,
                Directions trace) implements Details {
    }

    /**
     * The histogram-gibbs posterior of log Z (Habeck 2017, Fig. 4B): mean, standard deviation, median and the 95%
     * equal-tailed interval, the chain's effective draws, and the sampler's settings; the draws are on {@code --plot}.
     */
    record GibbsPosterior(double mean, double sd, double median, double lower, double upper, double ess, int draws,
                          int burnIn, int bins, double binWidth) {
        static GibbsPosterior of(HistogramGibbs.Posterior p, double logZ0, HistogramGibbs.Settings s) {
            return new GibbsPosterior(logZ0 + p.mean(), p.sd(), logZ0 + p.median(), logZ0 + p.lower(), logZ0 + p.upper(),
                    p.ess(), s.samples(), s.burnIn(), p.bins(), s.binWidth());
        }
    }

    /** The traces of the two annealing directions of a work run. */
    record Directions(List<TracePoint> forward, List<TracePoint> reverse) {
    }

    /** The readings of one tempered run ({@code TemperedSampling.Settings.ESTIMATORS}), its settings and eq. 16. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Tempered(Map<Method, Json.Estimate> estimates, int chains, int levels, String ladder, String prior, int sweeps,
                    int roundSweeps, int maxRounds, String initialZ, int initialRounds, boolean converged,
                    double finalDeviation, int batches, DeltaMethod deltaMethod, int mbarSamples, Double mbarResidual, long chainSweeps, double logZ0,
                    List<TemperedReport.LevelPoint> trace) implements Details {
    }

    /**
     * {@code pt}: MBAR's and TI's readings, the ladders and levels, the initial ladder's name and the tuning, the
     * communication barrier of the final ladder (Σ of the pairs' rejection rates) and of each tuning round, the round
     * trips of each ladder, and per level the β, the headline's log Z_k, the mean d log f/dβ and the swap rate to the
     * next level.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ParallelTempering(Map<Method, Json.Estimate> estimates, String headline, int ladders, int levels, int chains,
                             String ladder, int sweeps, int roundSweeps, int tuningRounds, double barrier,
                             List<Double> tuningBarriers, long roundTrips, List<Long> ladderRoundTrips, int mbarSamples,
                             Double mbarResidual, long chainSweeps, double logZ0, List<PtReport.LevelPoint> trace)
            implements Details {
    }

    /**
     * {@code smc}, {@code power-posterior} and {@code power-posterior-corrected}: every estimate of the run, the
     * steps taken ({@code essTarget} and {@code maxSteps} for adaptive tempering, null for a schedule), and the
     * trace of β, ESS, conditional ESS, resampling and the mean slope.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Smc(Map<Method, Json.Estimate> estimates, int particles, String steps, int stepCount, Double essTarget,
               Integer maxSteps, double resampleThreshold, String resampling, int resamplings, long transitions,
               double logZ0, List<org.logz.estimate.smc.SmcTracePoint> trace) implements Details {
    }

    /**
     * {@code aisel}: the SMC sampler's part, the inner estimator (N, proposal), σ² of log p̂_N at the posterior mean
     * {@code center} of θ, Theorem 1's τ and ESS factor exp(-τσ²), the inner draws of all replicates, and with
     * {@code --inner auto} how N was chosen.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Aisel(Map<Method, Json.Estimate> estimates, int particles, String steps, int stepCount, Double essTarget,
                 double resampleThreshold, String resampling, int resamplings, long moves, long innerDraws, int inner,
                 String proposal, double logLikelihoodVariance, Map<String, Double> center, double tau, double essFactor,
                 InnerChoice innerChoice, List<org.logz.estimate.smc.SmcTracePoint> trace) implements Details {
    }

    /** How --inner auto chose N: the target variance, and the variance measured with measuredDraws at the pilot's mean. */
    record InnerChoice(double targetVariance, int measuredDraws, double measuredVariance, long pilotMoves) {
    }

    /**
     * {@code rm} and the ARM variants; {@code gammaThreshold} and {@code maxGenerate} for ARM,
     * {@code essThreshold} for Resample-Move, {@code reseedSweeps} for arm-reseed; for GP classification
     * the largest relative drift of the grown precisions against fresh factorizations and how often they
     * were re-factorized (null otherwise); {@code islands} the independent populations the particles were split into;
     * {@code allocation} Theorem 1's optimum beside the trace's R_n.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Sequential(double ess, int particles, int islands, double meanParticles, long particleSteps, int resamplings, String order,
                      String resampling, int gibbsSteps, Double gammaThreshold, Integer maxGenerate, Double essThreshold,
                      Integer reseedSweeps, Double precisionDrift, Integer refactorizations, double logZ0,
                      AllocationReport allocation, List<SequentialTracePoint> trace) implements Details {
    }

    /**
     * The ARM paper's Theorem 1 on the trace ({@link Allocation}): R_tot, V_min, the run's Σ v̂_n/R_n, their ratio, and
     * per trace point v̂_n and R_n^opt.
     */
    record AllocationReport(long totalParticles, double minimumVariance, double variance, double efficiency, double[] vHat,
                            double[] optimalParticles) {
        static AllocationReport of(Allocation a) {
            return new AllocationReport(a.totalParticles(), a.minimumVariance(), a.variance(), a.efficiency(), a.vHat(),
                    a.optimalParticles());
        }
    }

    /** An optional standard error as a nullable number. */
    static Double orNull(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
