package org.logz.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.UserException;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightSummary;
import org.logz.estimate.checkpoint.AnnealingState;
import org.logz.estimate.checkpoint.CheckpointFiles;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.memory.Footprint;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.schedule.Schedule;

/**
 * Annealed importance sampling (Neal 2001) and its reverse (Burda, Grosse &amp; Salakhutdinov 2015),
 * backend-agnostic, on any {@link TemperedPath} (DESIGN §6).
 *
 * <p>Forward: {@code x_0 ~ p_0}; for k = 1..K, {@code lw += log f_k(x_{k-1}) - log f_{k-1}(x_{k-1})},
 * then a transition leaving {@code p_k} invariant (skipped after the last step, where it would not
 * change the weights). {@code log Ẑ = log Z_0 + LSE(lw) - log M}; by Jensen it underestimates
 * {@code log Z} on average.
 *
 * <p>Reverse: the same path from {@code x_K ~ p_K} down to β = 0; {@code E[w] = Z_0/Z_K}, so
 * {@code log Ẑ = log Z_0 - (LSE(lw) - log M)} overestimates {@code log Z} on average when the start
 * is exact (a stochastic upper bound; Habeck 2017 eq. 7).
 *
 * <p>Philox steps: 0 for base draws, k for the transition of step k. Reverse runs use a key derived
 * from the seed ({@link StreamTag#REVERSE}) so that a forward and a reverse run with the same seed
 * are independent, as BAR requires.
 */
public final class AnnealedImportanceSampling {

    /**
     * @param chains      number of independent chains M (at least 2, for a standard error)
     * @param schedule    the inverse temperatures
     * @param seed        Philox key
     * @param tracePoints how many points of running log Z and ESS to record (and report as progress)
     */
    public record Settings(int chains, Schedule schedule, long seed, int tracePoints) {
        public Settings {
            if (chains < 2) {
                throw new UserException("annealing needs at least 2 chains for a standard error, got " + chains);
            }
            if (tracePoints < 1) {
                throw new UserException("trace points must be at least 1, got " + tracePoints);
            }
        }

        public Settings(int chains, Schedule schedule, long seed) {
            this(chains, schedule, seed, 200);
        }
    }

    /** How reverse chains start at the target. */
    public sealed interface Start {
        /** Transitions at β = 1 after the start states are in place (burn-in); 0 for none. */
        int sweeps();

        /** Exact samples from the target (only for models small enough to enumerate). */
        record Exact() implements Start {
            @Override
            public int sweeps() {
                return 0;
            }
        }

        /**
         * Given states, {@code chains × dimension} row-major (e.g. the Ising ground states, Habeck
         * §6.1), then {@code sweeps} transitions at β = 1.
         */
        record Given(float[] states, String description, int sweeps) implements Start {
            public Given {
                requireBurnIn(sweeps, 0);
                states = states.clone();
            }

            /** A copy of the states. */
            @Override
            public float[] states() {
                return states.clone();
            }
        }

        /**
         * Chains drawn from the base and run {@code sweeps} transitions at β = 1; approximate, so
         * the upper-bound property of the reverse estimate is lost.
         */
        record Gibbs(int sweeps) implements Start {
            public Gibbs {
                requireBurnIn(sweeps, 1);
            }
        }

        /** The longest burn-in at β = 1: a run silent for hours is more likely a typo than a plan. */
        int MAX_BURN_IN = 10_000_000;

        private static void requireBurnIn(int sweeps, int minimum) {
            if (sweeps < minimum || sweeps > MAX_BURN_IN) {
                throw new UserException("burn-in at β = 1 must be " + minimum + " to " + MAX_BURN_IN + " steps of "
                        + "transitions, got " + sweeps);
            }
        }
    }

    private final Settings settings;
    private final Checkpointing checkpoints;

    public AnnealedImportanceSampling(Settings settings) {
        this(settings, Checkpointing.NONE);
    }

    /**
     * A run that saves its state to {@code checkpoints.save()} as it goes and resumes from {@code checkpoints.resume()};
     * a resumed run gives the bits of the uninterrupted one.
     */
    public AnnealedImportanceSampling(Settings settings, Checkpointing checkpoints) {
        this.settings = settings;
        this.checkpoints = checkpoints;
    }

    /**
     * What one annealing run allocates on {@code path}: the chains, their log weights (and a vector for
     * the visited bound), and on the heap the final weights and work handed back in the result.
     */
    public Footprint footprint(TemperedPath path) {
        long m = settings.chains();
        return new Footprint(Footprint.times(m, path.bytesPerChain()), Footprint.times(m, 16),
                Footprint.times(m, 24) + 64L * settings.tracePoints());
    }

    /**
     * Base-to-target annealing.
     *
     * @throws ImpossibleEstimateException when the estimate lies below a visited state's log f by more than
     *                                     three standard errors
     */
    public AnnealingResult forward(TemperedPath path, ProgressListener listener) {
        return annealForward(path, listener).requirePossible();
    }

    /**
     * Target-to-base annealing from the given start.
     *
     * @throws ImpossibleEstimateException as {@link #forward}
     */
    public AnnealingResult reverse(TemperedPath path, Start start, ProgressListener listener) {
        return annealReverse(path, start, listener).requirePossible();
    }

    /** {@link #forward} without the check: a bidirectional run judges its headline estimate, not its halves. */
    AnnealingResult annealForward(TemperedPath path, ProgressListener listener) {
        path.backend().require(footprint(path), "ais with " + settings.chains() + " chains on " + path.description());
        long started = System.nanoTime();
        long bytes = path.backend().transferredBytes();
        long seed = settings.seed();
        int m = settings.chains();
        path.requireSteps(1L + settings.schedule().steps());
        try (TemperedPath.Chains chains = path.chains(m); ParticleVector logW = path.backend().vector(m)) {
            Run run = new Run(path, logW, listener, true, Method.AIS, "base");
            Optional<AnnealingState> resumed = run.resumeState();
            if (resumed.isPresent()) {
                run.restore(chains, resumed.get());
            } else {
                chains.sampleBase(seed, 0);
                run.begin("base", 0, OptionalDouble.empty());
            }
            run.anneal(chains, seed, 1);
            return run.finish(started, bytes, path.visitedBound(chains));
        }
    }

    /** {@link #reverse} without the check. */
    AnnealingResult annealReverse(TemperedPath path, Start start, ProgressListener listener) {
        path.backend().require(footprint(path), "raise with " + settings.chains() + " chains on " + path.description());
        long started = System.nanoTime();
        long bytes = path.backend().transferredBytes();
        long seed = Philox.derive(settings.seed(), StreamTag.REVERSE, 0);
        int m = settings.chains();
        try (TemperedPath.Chains chains = path.chains(m); ParticleVector logW = path.backend().vector(m)) {
            path.requireSteps(1L + start.sweeps() + settings.schedule().steps());
            Run run = new Run(path, logW, listener, false, Method.RAISE, startKey(start));
            Optional<AnnealingState> resumed = run.resumeState();
            if (resumed.isPresent()) {
                run.restore(chains, resumed.get());
            } else {
                String startName;
                if (start instanceof Start.Exact) {
                    float[] samples = path.exactTargetSamples(m, seed).orElseThrow(() -> new UserException(
                            "exact target samples are not available for " + path.description()
                                    + "; start reverse annealing from Gibbs chains or given states"));
                    chains.load(samples);
                    startName = "exact";
                } else if (start instanceof Start.Given given) {
                    chains.load(given.states());
                    startName = given.description() + (given.sweeps() > 0 ? ":" + given.sweeps() : "");
                } else {
                    chains.sampleBase(seed, 0);
                    startName = "gibbs:" + start.sweeps();
                }
                if (start.sweeps() > 0) {
                    chains.transition(1.0, start.sweeps(), seed, 1);
                }
                run.begin(startName, (long) start.sweeps() * path.transitionsPerStep() * m, path.visitedBound(chains));
            }
            run.anneal(chains, seed, 1 + start.sweeps());
            return run.finish(started, bytes, run.startBound());
        }
    }

    /** State of one annealing pass. */
    private final class Run {
        private final TemperedPath path;
        private final ParticleBackend backend;
        private final ParticleVector logW;
        private final ProgressListener listener;
        private final boolean forward;
        private final Method method;
        private final String fingerprint;
        private final List<TracePoint> trace = new ArrayList<>();
        private long transitions;
        private int nextStep = 1;
        private double secondsBefore;
        private String start;
        private long burnIn;
        private OptionalDouble startBound;

        Run(TemperedPath path, ParticleVector logW, ProgressListener listener, boolean forward, Method method,
            String startKey) {
            this.path = path;
            this.backend = path.backend();
            this.logW = logW;
            this.listener = listener;
            this.forward = forward;
            this.method = method;
            this.fingerprint = checkpoints.fingerprint(runFingerprint(path, method, startKey));
        }

        Optional<AnnealingState> resumeState() {
            return checkpoints.resumeState(fingerprint);
        }

        /** A fresh run: the chains are at their start, the weights zero. */
        void begin(String startName, long burnInSweeps, OptionalDouble bound) {
            start = startName;
            burnIn = burnInSweeps;
            startBound = bound;
            backend.fill(logW, 0, settings.chains(), 0.0);
        }

        /** A resumed run: the chains, weights, trace and counts of the checkpoint, whose sizes must be this run's. */
        void restore(TemperedPath.Chains chains, AnnealingState state) {
            int m = settings.chains();
            int k = settings.schedule().steps();
            if (state.nextStep() < 1 || state.nextStep() > k || state.logW().length != m
                    || state.states().length != (long) m * path.model().dimension() || state.trace().size() > k
                    || state.transitions() < 0 || state.burnIn() < 0) {
                throw new UserException(checkpoints.resume() + ": the checkpoint is damaged (its step " + state.nextStep()
                        + ", " + state.logW().length + " weights or " + state.states().length + " state values do not fit "
                        + m + " chains on " + k + " steps)");
            }
            chains.load(state.states());
            backend.upload(state.logW(), logW);
            trace.addAll(state.trace());
            transitions = state.transitions();
            nextStep = state.nextStep();
            secondsBefore = state.seconds();
            start = state.start();
            burnIn = state.burnIn();
            startBound = Double.isNaN(state.visitedBound()) ? OptionalDouble.empty()
                    : OptionalDouble.of(state.visitedBound());
        }

        OptionalDouble startBound() {
            return startBound;
        }

        void anneal(TemperedPath.Chains chains, long seed, int firstStep) {
            Schedule schedule = settings.schedule();
            double[] betas = schedule.betas();
            int k = schedule.steps();
            int m = settings.chains();
            int stride = Math.max(1, k / settings.tracePoints());
            long runStarted = System.nanoTime();
            long lastSave = runStarted;
            for (int i = nextStep; i <= k; i++) {
                // forward visits β_0 → β_K, reverse β_K → β_0
                double from = forward ? betas[i - 1] : betas[k - i + 1];
                double to = forward ? betas[i] : betas[k - i];
                boolean transition = i < k;
                chains.anneal(from, to, logW, transition, seed, firstStep + i - 1);
                if (transition) {
                    transitions += path.transitionsPerStep();
                }
                if (i % stride == 0 || i == k) {
                    WeightSummary s = backend.summarize(logW, m);
                    trace.add(new TracePoint(i, to, s.logMean(), s.ess()));
                    listener.progress(i, k, forward ? path.logZ0() + s.logMean() : Double.NaN, s.ess());
                }
                if (checkpoints.save() != null && i < k) {
                    long now = System.nanoTime();
                    if ((now - lastSave) * 1e-9 >= checkpoints.everySeconds()) {
                        CheckpointFiles.write(checkpoints.save(), new AnnealingState(fingerprint, i + 1, chains.states(),
                                backend.download(logW, m), trace, transitions, secondsBefore + (now - runStarted) * 1e-9,
                                start, burnIn, startBound.orElse(Double.NaN)));
                        lastSave = System.nanoTime();
                    }
                }
            }
        }

        AnnealingResult finish(long startedNanos, long bytesBefore, OptionalDouble visitedBound) {
            int m = settings.chains();
            WeightSummary s = backend.summarize(logW, m);
            if (s.degenerate()) {
                throw new EstimationException(method + " on " + path.description() + ": the importance weights are "
                        + "degenerate (log-sum " + s.logSum() + "); the model or schedule produced no usable weight");
            }
            double logZ = forward ? path.logZ0() + s.logMean() : path.logZ0() - s.logMean();
            double[] lw = backend.download(logW, m);
            double seconds = secondsBefore + (System.nanoTime() - startedNanos) * 1e-9;
            return new AnnealingResult(method, backend.name(), path.description(), settings.schedule().name(), logZ,
                    s.logMeanStdErr(), s.ess(), path.logZ0(), m, settings.schedule().steps(),
                    transitions * m + burnIn, settings.seed(), seconds, lw, trace, start,
                    backend.transferredBytes() - bytesBefore, visitedBound);
        }
    }

    /**
     * This run's settings in a checkpoint's fingerprint: the method, chains, schedule (its β's hashed), seed, the path
     * (model, base and transitions per step) and the backend, whose float rounding the bits depend on.
     */
    private Map<String, String> runFingerprint(TemperedPath path, Method method, String startKey) {
        Map<String, String> run = new LinkedHashMap<>();
        run.put("method", method.toString());
        run.put("chains", Integer.toString(settings.chains()));
        String name = settings.schedule().name();
        run.put("schedule", (name.length() <= 40 ? name : "#" + Integer.toHexString(name.hashCode())) + "/"
                + settings.schedule().steps() + "/" + Integer.toHexString(Arrays.hashCode(settings.schedule().betas())));
        run.put("seed", Long.toString(settings.seed()));
        run.put("start", startKey);
        run.put("model", path.model().fingerprint().replace(';', ','));
        run.put("transitions-per-step", Integer.toString(path.transitionsPerStep()));
        run.put("backend", path.backend().name());
        return run;
    }

    /** A reverse start as the run's draws depend on it: its kind and its burn-in. */
    private static String startKey(Start start) {
        String kind = start instanceof Start.Exact ? "exact"
                : start instanceof Start.Given given ? given.description() : "gibbs";
        return kind + ":" + start.sweeps();
    }
}
