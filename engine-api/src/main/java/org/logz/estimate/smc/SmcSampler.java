package org.logz.estimate.smc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Lineages;
import org.logz.estimate.Method;
import org.logz.estimate.checkpoint.CheckpointFiles;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.estimate.checkpoint.SmcState;
import org.logz.memory.Footprint;
import org.logz.path.TemperedPath;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

/**
 * The SMC sampler of Del Moral, Doucet &amp; Jasra (2006) on any {@link TemperedPath}, as Tran et al.
 * state it (Algorithm 1 with an exact likelihood): M particles from the base; at every step reweight by
 * the incremental weights {@code log f_{β'}(x) - log f_β(x)}, resample when the ESS falls below α·M, and
 * move every particle by the path's transitions at β'. The estimate is
 * {@code log Z_0 + Σ_t log Σ_i W_i g_i}, the sum of the logs of the weighted mean incremental weights
 * (accumulated at every resampling and at the end).
 *
 * <p>The inverse temperatures are a fixed schedule or adaptive: the next β is the largest one at which
 * the conditional ESS of the incremental weights, {@code M (Σ W g)² / Σ W g²} (Zhou, Johansen &amp; Aston
 * 2016, eq. 3.16), is at least ρ·M. It is found by bisection on the weights tilted along the slope
 * {@code s = d/dβ log f_β} at the current β (exact where the path is linear in β,
 * {@link org.logz.model.TemperedModel#linearPath()}); on other paths the exact conditional ESS of the
 * chosen step is checked and the step bisected on exact increments when it misses ρ by more than 5%
 * either way.
 *
 * <p>From the same particles, the power-posterior estimate (Friel &amp; Pettitt 2008; Tran et al. eq.
 * 10-11): {@code f(β_t) = Σ W_i s_i} after the move at every visited β, integrated by the trapezoid
 * rule, and with the second-order correction {@code - Σ Δβ²/12 (f'(β_{t+1}) - f'(β_t))} of Friel, Hurn
 * &amp; Wyse (2014), where {@code f' = Var_β(s) + E_β[ds/dβ]} (the second term, zero on linear paths, by
 * a central difference of the weighted mean slope).
 *
 * <p>Standard error of the SMC estimate from one run: Lee &amp; Whiteley (2018) with multinomial resampling
 * (as for Resample-Move); otherwise none, and replicates give one. Philox: path step 0 for the base
 * draws, step t for the resampling and the move of step t.
 */
public final class SmcSampler {
    /** The estimates a run gives, in order. */
    public static final List<Method> ESTIMATORS = List.of(Method.SMC, Method.POWER_POSTERIOR,
            Method.POWER_POSTERIOR_CORRECTED);
    /** The largest number of steps an adaptive run may take. */
    public static final int MAX_STEPS = 1_000_000;
    /** Half-width of the central difference of the mean slope on paths that are not linear in β. */
    static final double SLOPE_STEP = 1e-4;
    /** Progress of an adaptive run, in parts of the way from β = 0 to 1. */
    private static final long PROGRESS_UNITS = 1_000_000;
    /** Relative miss of the conditional ESS target that makes a non-linear path's step be bisected exactly. */
    static final double TARGET_TOLERANCE = 0.05;

    /** How the inverse temperatures are chosen. */
    public sealed interface Steps {
        /** What the results call it. */
        String name();

        /** The steps of a schedule. */
        record Fixed(Schedule schedule) implements Steps {
            @Override
            public String name() {
                return schedule.name();
            }
        }

        /**
         * The next β where the conditional ESS is {@code essTarget}·M, at most {@code maxSteps} steps.
         */
        record Adaptive(double essTarget, int maxSteps) implements Steps {
            public Adaptive {
                if (!(essTarget > 0 && essTarget < 1)) {
                    throw new UserException("the conditional ESS target must lie in (0, 1), got " + essTarget);
                }
                if (maxSteps < 1 || maxSteps > MAX_STEPS) {
                    throw new UserException("the cap on adaptive steps must be between 1 and " + MAX_STEPS + ", got "
                            + maxSteps);
                }
            }

            @Override
            public String name() {
                return String.format(Locale.ROOT, "adaptive:%s", essTarget);
            }
        }
    }

    /**
     * @param particles         M (at least 2)
     * @param steps             a schedule or adaptive tempering
     * @param resampleThreshold α: resample when the ESS falls below α·M (0 never, 1 always)
     * @param scheme            the resampling scheme
     * @param seed              Philox key
     * @param headline          the estimate the result reports: smc, power-posterior or power-posterior-corrected
     */
    public record Settings(int particles, Steps steps, double resampleThreshold, ResamplingScheme scheme, long seed,
                           Method headline) {
        public Settings {
            if (particles < 2) {
                throw new UserException("the SMC sampler needs at least 2 particles, got " + particles);
            }
            if (!(resampleThreshold >= 0 && resampleThreshold <= 1)) {
                throw new UserException("the resampling threshold must lie in [0, 1], got " + resampleThreshold);
            }
            if (!ESTIMATORS.contains(headline)) {
                throw new UserException("no SMC estimator named " + headline + "; use one of " + ESTIMATORS);
            }
        }
    }

    private final Settings settings;
    private final Checkpointing checkpoints;

    public SmcSampler(Settings settings) {
        this(settings, Checkpointing.NONE);
    }

    /**
     * A run that saves its state to {@code checkpoints.save()} after a step once {@code checkpoints.everySeconds()}
     * have passed, and resumes from {@code checkpoints.resume()}; a resumed run gives the bits of the uninterrupted one.
     */
    public SmcSampler(Settings settings, Checkpointing checkpoints) {
        this.settings = settings;
        this.checkpoints = checkpoints;
    }

    /** The most steps a run can take. */
    private int stepCap() {
        return settings.steps() instanceof Steps.Fixed f ? f.schedule().steps()
                : ((Steps.Adaptive) settings.steps()).maxSteps();
    }

    /**
     * What a run allocates: the particles twice (resampling gathers into a second buffer), eleven vectors of M
     * doubles and three of M indices, and the trace on the heap.
     */
    public Footprint footprint(TemperedPath path) {
        long m = settings.particles();
        return new Footprint(Footprint.times(2 * m, path.bytesPerChain()), Footprint.times(m, 11 * 8 + 3 * 4),
                Footprint.times(stepCap() + 1L, 96));
    }

    /**
     * Runs the sampler on {@code path}.
     *
     * @throws EstimationException when the weights degenerate or adaptive tempering reaches its cap before β = 1
     * @throws org.logz.estimate.ImpossibleEstimateException when the headline lies below a visited state's log f
     */
    public SmcResult run(TemperedPath path, ProgressListener listener) {
        return run(path, listener, false);
    }

    /**
     * {@link #run(TemperedPath, ProgressListener)}, with {@link SmcResult#posteriorMean()} the weighted mean of the
     * final particles' state columns when {@code posteriorMean} (a download of all states; AISEL's θ).
     */
    public SmcResult run(TemperedPath path, ProgressListener listener, boolean posteriorMean) {
        path.backend().require(footprint(path), "smc with " + settings.particles() + " particles on " + path.description());
        path.requireSteps(1L + stepCap());
        try (Run run = new Run(path)) {
            return run.execute(listener, posteriorMean).requirePossible();
        }
    }

    /** The buffers and state of one run. */
    private final class Run implements AutoCloseable {
        private final TemperedPath path;
        private final ParticleBackend backend;
        private final int m = settings.particles();
        private final long seed = settings.seed();
        private final boolean linear;
        private final TemperedPath.Chains chains;
        private final ParticleVector logW;
        private final ParticleVector previous;
        private final ParticleVector delta;
        private final ParticleVector slope;
        private final ParticleVector pairSlopes;
        private final ParticleVector pairLogF;
        private final ParticleVector levelBetas;
        private final IndexVector ancestors;
        private final Lineages lineages;
        private final long bytesBefore;
        private int resamplings;
        private long transitions;

        Run(TemperedPath path) {
            this.path = path;
            this.backend = path.backend();
            this.bytesBefore = backend.transferredBytes();
            this.linear = path.model().linearPath();
            this.chains = path.chains(m);
            this.logW = backend.vector(m);
            this.previous = backend.vector(m);
            this.delta = backend.vector(m);
            this.slope = backend.vector(m);
            this.pairSlopes = backend.vector(2 * m);
            this.pairLogF = backend.vector(2 * m);
            this.levelBetas = backend.vector(2);
            this.ancestors = backend.indices(m);
            this.lineages = settings.scheme() == ResamplingScheme.MULTINOMIAL ? new Lineages(backend, m) : null;
        }

        SmcResult execute(ProgressListener listener, boolean posteriorMean) {
            long started = System.nanoTime();
            int cap = stepCap();
            double logZ0 = path.logZ0();
            String fingerprint = checkpoints.fingerprint(runFingerprint());
            Optional<SmcState> resumed = checkpoints.resumeSmc(fingerprint);
            List<SmcTracePoint> trace = new ArrayList<>();
            List<Double> slopeChange = new ArrayList<>();
            double resampledLogZ = 0;
            double beta = 0;
            int first = 1;
            double secondsBefore = 0;
            if (resumed.isPresent()) {
                SmcState state = resumed.get();
                restore(state);
                trace.addAll(state.trace());
                for (double d : state.slopeChange()) {
                    slopeChange.add(d);
                }
                resampledLogZ = state.resampledLogZ();
                beta = state.beta();
                first = state.nextStep();
                secondsBefore = state.seconds();
                // the slopes at β, which the next step's adaptive choice reads, as the last step left them
                slopeMoments(beta);
            } else {
                chains.sampleBase(seed, 0);
                backend.fill(logW, 0, m, 0.0);
                WeightedMoments at = slopeMoments(beta);
                slopeChange.add(at.variance() + curvature(beta));
                trace.add(new SmcTracePoint(0, 0, m, m, false, logZ0, at.mean(), at.variance()));
            }
            long lastSave = System.nanoTime();
            for (int t = first; beta < 1; t++) {
                if (t > cap) {
                    throw new EstimationException(String.format(Locale.ROOT, "smc on %s: adaptive tempering reached its "
                            + "cap of %d steps at β = %.6g (the conditional ESS target asks for smaller steps); raise "
                            + "--max-steps or lower --ess-target", path.description(), cap, beta));
                }
                WeightSummary before = backend.summarize(logW, m);
                double next = settings.steps() instanceof Steps.Fixed f ? f.schedule().betas()[t]
                        : adaptiveNext(beta, before, ((Steps.Adaptive) settings.steps()).essTarget());
                backend.copy(logW, 0, previous, 0, m);
                double conditionalEss = reweight(beta, next, before);
                if (settings.steps() instanceof Steps.Adaptive a && !linear && next < 1
                        && Math.abs(conditionalEss / m - a.essTarget()) > TARGET_TOLERANCE * a.essTarget()) {
                    next = exactStep(beta, next, conditionalEss / m, before, a.essTarget());
                    conditionalEss = reweight(beta, next, before);
                }
                WeightSummary after = backend.summarize(logW, m);
                if (after.degenerate()) {
                    throw new EstimationException(String.format(Locale.ROOT, "smc on %s: the weights are degenerate at "
                            + "β = %.6g (log-sum %s)", path.description(), next, after.logSum()));
                }
                double running = logZ0 + resampledLogZ + after.logMean();
                boolean resample = next < 1 && after.ess() < settings.resampleThreshold() * m;
                if (resample) {
                    resampledLogZ += after.logMean();
                    backend.resample(settings.scheme(), logW, m, m, seed, t, ancestors);
                    chains.resample(ancestors);
                    if (lineages != null) {
                        lineages.resampled(ancestors);
                    }
                    backend.fill(logW, 0, m, 0.0);
                    resamplings++;
                }
                if (next < 1) {
                    chains.transition(next, 1, seed, t);
                    transitions += (long) path.transitionsPerStep() * m;
                }
                WeightedMoments at = slopeMoments(next);
                slopeChange.add(at.variance() + curvature(next));
                trace.add(new SmcTracePoint(t, next, after.ess(), conditionalEss, resample, running, at.mean(),
                        at.variance()));
                if (settings.steps() instanceof Steps.Fixed) {
                    listener.progress(t, cap, running, after.ess());
                } else {
                    // adaptive runs do not know their steps in advance: progress is the way along β
                    listener.progress(Math.round(next * PROGRESS_UNITS), PROGRESS_UNITS, running, after.ess());
                }
                beta = next;
                if (checkpoints.save() != null && beta < 1
                        && (System.nanoTime() - lastSave) * 1e-9 >= checkpoints.everySeconds()) {
                    CheckpointFiles.write(checkpoints.save(), new SmcState(fingerprint, t + 1, beta, chains.states(),
                            backend.download(logW, m), resampledLogZ, trace, slopeChange.stream().mapToDouble(d -> d)
                            .toArray(), resamplings, transitions, lineages != null ? lineages.eves() : new int[0],
                            secondsBefore + (System.nanoTime() - started) * 1e-9));
                    lastSave = System.nanoTime();
                }
            }
            WeightSummary last = backend.summarize(logW, m);
            double logZ = logZ0 + resampledLogZ + last.logMean();
            OptionalDouble stdErr = lineages != null ? lineages.relativeStdErr(logW) : OptionalDouble.empty();
            double[] ti = powerPosterior(trace, slopeChange);
            List<SmcResult.Reading> readings = List.of(new SmcResult.Reading(Method.SMC, logZ, stdErr),
                    new SmcResult.Reading(Method.POWER_POSTERIOR, logZ0 + ti[0], OptionalDouble.empty()),
                    new SmcResult.Reading(Method.POWER_POSTERIOR_CORRECTED, logZ0 + ti[1], OptionalDouble.empty()));
            return new SmcResult(settings.headline(), backend.name(), path.description(), settings.steps().name(), m, logZ0,
                    readings, resamplings, lineages != null ? lineages.survivors() : 0, transitions, seed,
                    secondsBefore + (System.nanoTime() - started) * 1e-9, trace, path.visitedBound(chains),
                    backend.transferredBytes() - bytesBefore, posteriorMean ? weightedMean(last) : new double[0]);
        }

        /** A resumed run's particles, weights, counts and lineages, whose sizes must be this run's. */
        private void restore(SmcState state) {
            boolean eveFits = lineages == null ? state.eve().length == 0 : state.eve().length == m
                    && java.util.Arrays.stream(state.eve()).allMatch(e -> e >= 0 && e < m);
            if (state.states().length != (long) m * path.dimension() || state.logW().length != m || !eveFits
                    || state.nextStep() < 1 || state.nextStep() > stepCap() + 1 || !(state.beta() >= 0 && state.beta() < 1)
                    || state.trace().size() != state.slopeChange().length || state.resamplings() < 0
                    || state.transitions() < 0) {
                throw new UserException(checkpoints.resume() + ": the checkpoint is damaged (its step " + state.nextStep()
                        + ", β " + state.beta() + ", " + state.logW().length + " weights or " + state.states().length
                        + " state values do not fit " + m + " particles)");
            }
            chains.load(state.states());
            backend.upload(state.logW(), logW);
            resamplings = state.resamplings();
            transitions = state.transitions();
            if (lineages != null) {
                lineages.restore(state.eve(), state.resamplings());
            }
        }

        /**
         * This run's settings in a checkpoint's fingerprint: particles, steps (a schedule's β's hashed, or the adaptive
         * target and cap), resampling, seed, the path (model and transitions per step) and the backend.
         */
        private Map<String, String> runFingerprint() {
            Map<String, String> run = new LinkedHashMap<>();
            run.put("method", "smc");
            run.put("particles", Integer.toString(m));
            run.put("steps", settings.steps() instanceof Steps.Fixed f ? Checkpointing.scheduleKey(f.schedule())
                    : settings.steps().name() + "/" + stepCap());
            run.put("resampling", settings.resampleThreshold() + "/" + settings.scheme());
            run.put("seed", Long.toString(seed));
            run.put("model", path.model().fingerprint().replace(';', ','));
            run.put("transitions-per-step", Integer.toString(path.transitionsPerStep()));
            run.put("backend", backend.name());
            return run;
        }

        /** The columns of the particles' states, averaged with their normalized final weights. */
        private double[] weightedMean(WeightSummary last) {
            int dim = path.dimension();
            float[] states = chains.states();
            double[] w = backend.download(logW, m);
            double[] mean = new double[dim];
            for (int r = 0; r < m; r++) {
                double weight = Math.exp(w[r] - last.logSum());
                for (int k = 0; k < dim; k++) {
                    mean[k] += weight * states[r * dim + k];
                }
            }
            return mean;
        }

        /**
         * {@code logW = previous + log f_to - log f_from} (the incremental weights) and the step's conditional ESS
         * {@code exp(2 LSE(lw + Δ) - LSE(lw) - LSE(lw + 2Δ))} against the weights before it.
         */
        private double reweight(double from, double to, WeightSummary before) {
            backend.copy(previous, 0, logW, 0, m);
            chains.anneal(from, to, logW, false, seed, 0);
            backend.copy(logW, 0, delta, 0, m);
            backend.axpy(-1, previous, delta, 0, m);
            WeightSummary once = backend.summarize(logW, m);
            WeightSummary twice = backend.summarize(previous, delta, 2, 0, m);
            return m * Math.exp(2 * once.logSum() - before.logSum() - twice.logSum());
        }

        /** The conditional ESS fraction of a step δ along the slope: {@code exp(2 LSE(lw + δs) - LSE(lw) - LSE(lw + 2δs))}. */
        private double tiltedEss(double step, WeightSummary before) {
            WeightSummary once = backend.summarize(logW, slope, step, 0, m);
            WeightSummary twice = backend.summarize(logW, slope, 2 * step, 0, m);
            return Math.exp(2 * once.logSum() - before.logSum() - twice.logSum());
        }

        /**
         * The largest β' ≤ 1 whose tilted conditional ESS is at least ρ·M, by bisection on the step. When no step
         * keeps ρ·M (a few particles whose slopes lie tens of thousands of nats below the rest, as a noisy
         * likelihood estimate gives, lose their weight at any step the bisection can resolve), the target is relaxed
         * to 1 - 10(1 - ρ), then further, down to 1/2: any increasing β sequence keeps the estimator unbiased, the
         * criterion only spaces the steps.
         */
        private double adaptiveNext(double beta, WeightSummary before, double target) {
            try {
                return adaptiveNextAt(beta, before, target);
            } catch (EstimationException failure) {
                for (double t = 1 - 10 * (1 - target); t >= 0.5; t = 1 - 10 * (1 - t)) {
                    try {
                        return adaptiveNextAt(beta, before, t);
                    } catch (EstimationException e) {
                        failure.addSuppressed(e);
                    }
                }
                throw failure;
            }
        }

        private double adaptiveNextAt(double beta, WeightSummary before, double target) {
            double remaining = 1 - beta;
            if (tiltedEss(remaining, before) >= target) {
                return 1;
            }
            double lo = 0;
            double hi = remaining;
            // stop within 0.1% above the target: a closer β changes nothing but the cost of the search
            for (int i = 0; i < 60 && hi - lo > 1e-14 * remaining; i++) {
                double mid = 0.5 * (lo + hi);
                double ess = tiltedEss(mid, before);
                if (ess >= target) {
                    lo = mid;
                    if (ess <= target * (1 + 1e-3)) {
                        break;
                    }
                } else {
                    hi = mid;
                }
            }
            if (!(lo > 0)) {
                throw new EstimationException(String.format(Locale.ROOT, "smc on %s: no step from β = %.6g keeps the "
                        + "conditional ESS at %.2f·M (the slopes d/dβ log f_β are not finite there?)", path.description(),
                        beta, target));
            }
            return Math.min(1, beta + lo);
        }

        /**
         * For paths not linear in β: bisection on exact increments for the step whose conditional ESS lies within
         * 5% of the target, between β and the tilted guess {@code next} when that overshot, beyond it when it
         * fell short (1 when even the whole way keeps the target).
         */
        private double exactStep(double beta, double next, double essAtNext, WeightSummary before, double target) {
            double lo = beta;
            double hi = next;
            if (essAtNext > target) {
                if (reweight(beta, 1, before) / m >= target) {
                    return 1;
                }
                lo = next;
                hi = 1;
            }
            for (int i = 0; i < 40; i++) {
                double mid = 0.5 * (lo + hi);
                double ess = reweight(beta, mid, before) / m;
                if (Math.abs(ess - target) <= TARGET_TOLERANCE * target) {
                    return mid;
                }
                if (ess >= target) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo > beta ? lo : hi;
        }

        /** The weighted mean and variance of the slope at β, leaving the slopes in {@link #slope}. */
        private WeightedMoments slopeMoments(double beta) {
            backend.upload(new double[] {beta, beta}, levelBetas);
            chains.levels(levelBetas, 1, pairLogF, slope);
            return backend.moments(logW, slope, 0, 1, m);
        }

        /** {@code E_W[ds/dβ]} by a central difference of the weighted mean slope; 0 on linear paths. */
        private double curvature(double beta) {
            if (linear) {
                return 0;
            }
            double lo = Math.max(0, beta - SLOPE_STEP);
            double hi = Math.min(1, beta + SLOPE_STEP);
            backend.upload(new double[] {lo, hi}, levelBetas);
            chains.levels(levelBetas, 2, pairLogF, pairSlopes);
            return (backend.moments(logW, pairSlopes, 1, 2, m).mean() - backend.moments(logW, pairSlopes, 0, 2, m).mean())
                    / (hi - lo);
        }

        @Override
        public void close() {
            chains.close();
            logW.close();
            previous.close();
            delta.close();
            slope.close();
            pairSlopes.close();
            pairLogF.close();
            levelBetas.close();
            ancestors.close();
            if (lineages != null) {
                lineages.close();
            }
        }
    }

    /**
     * {trapezoid, corrected} integrals of the mean slopes of the trace over its β's, the correction
     * {@code Σ Δβ²/12 (f'_{t+1} - f'_t)} with {@code f'} from {@code slopeChange}.
     */
    static double[] powerPosterior(List<SmcTracePoint> trace, List<Double> slopeChange) {
        double trapezoid = 0;
        double correction = 0;
        for (int t = 0; t + 1 < trace.size(); t++) {
            double width = trace.get(t + 1).beta() - trace.get(t).beta();
            trapezoid += 0.5 * width * (trace.get(t).slopeMean() + trace.get(t + 1).slopeMean());
            correction += width * width / 12 * (slopeChange.get(t + 1) - slopeChange.get(t));
        }
        return new double[] {trapezoid, trapezoid - correction};
    }
}
