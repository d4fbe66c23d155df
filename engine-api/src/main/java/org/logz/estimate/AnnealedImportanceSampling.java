package org.logz.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.checkpoint.AnnealingState;
import org.logz.estimate.checkpoint.AnnealingStore;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.memory.Footprint;
import org.logz.numeric.LogSpace;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;
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
    /** Trace points that also measure the chains' mean energy (the others leave it NaN). */
    static final int ENERGY_POINTS = 50;

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

        /**
         * The end states of a forward run of the same settings under a key of its own ({@link #forwardStart}),
         * resampled by their importance weights (one multinomial draw per reverse chain), then {@code sweeps}
         * transitions at β = 1: a start near the target wherever forward annealing takes its mass (Burda et al. 2015
         * start RAISE from the target; where no exact draw exists the weighted forward ends are the nearest thing).
         * Such a start shares forward annealing's blind spots: modes it never reaches are missing from both.
         */
        record Forward(int sweeps) implements Start {
            public Forward {
                requireBurnIn(sweeps, 0);
            }
        }

        /**
         * The start of {@link Forward}: {@code chains} states drawn from the {@code count} forward end states
         * {@code states} (row-major, {@code dimension} values each) with probabilities proportional to their weights
         * {@code exp(logW)}, under a key derived from {@code seed}.
         */
        static Given fromForward(float[] states, double[] logW, int dimension, int chains, int sweeps, long seed) {
            int[] ancestors = new int[chains];
            Resampling.ancestors(ResamplingScheme.MULTINOMIAL, logW, logW.length, chains, Philox.derive(seed,
                    StreamTag.REVERSE_START, 0), 0, ancestors);
            float[] out = new float[chains * dimension];
            for (int r = 0; r < chains; r++) {
                System.arraycopy(states, ancestors[r] * dimension, out, r * dimension, dimension);
            }
            return new Given(out, "forward", sweeps);
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
    private final AnnealingStore store;
    private final Checkpointing checkpoints;

    public AnnealedImportanceSampling(Settings settings) {
        this(settings, Checkpointing.NONE);
    }

    /**
     * A run that saves its state to {@code checkpoints.save()} as it goes and resumes from {@code checkpoints.resume()};
     * a resumed run gives the bits of the uninterrupted one.
     */
    public AnnealedImportanceSampling(Settings settings, Checkpointing checkpoints) {
        this(settings, checkpoints.annealing());
    }

    /** A run that keeps its checkpoints in {@code store}: its own file, or its half of a forward and reverse run's. */
    public AnnealedImportanceSampling(Settings settings, AnnealingStore store) {
        this.settings = settings;
        this.store = store;
        this.checkpoints = store.checkpointing();
    }

    /**
     * What one annealing run allocates on {@code path}: the chains, their log weights (and vectors for the visited
     * bound and the traced energies), and on the heap the final weights and work handed back in the result.
     */
    public Footprint footprint(TemperedPath path) {
        return footprint(path, settings.chains());
    }

    private Footprint footprint(TemperedPath path, long m) {
        return new Footprint(Footprint.times(m, path.bytesPerChain()), Footprint.times(m, 48),
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
     * Chains {@code firstChain .. firstChain + count - 1} of the forward run, with the draws they have in the whole run
     * (the path's kernel keys each chain's streams by its index): a part that {@link #combine} puts together with the
     * others into the whole run's result. A part's own estimate and trace are its chains' alone, and it takes no
     * checkpoints.
     */
    public AnnealingResult forwardPart(TemperedPath path, int firstChain, int count, ProgressListener listener) {
        requirePart(firstChain, count);
        return annealForward(path, firstChain, count, listener, null);
    }

    /** Chains {@code firstChain .. firstChain + count - 1} of the reverse run from {@code start}, as {@link #forwardPart}. */
    public AnnealingResult reversePart(TemperedPath path, Start start, int firstChain, int count,
                                       ProgressListener listener) {
        requirePart(firstChain, count);
        if (start instanceof Start.Forward) {
            throw new UserException("--reverse-start forward needs the whole forward run's end states; a run from them "
                    + "does not split by chains");
        }
        return annealReverse(path, start, firstChain, count, listener, 0, 0);
    }

    private void requirePart(int firstChain, int count) {
        if (firstChain < 0 || count < 1 || (long) firstChain + count > settings.chains()) {
            throw new UserException("chains " + firstChain + " to " + ((long) firstChain + count - 1) + " are not a part "
                    + "of a run of " + settings.chains() + " chains");
        }
        if (checkpoints.active()) {
            throw new UserException("a part of a run takes no checkpoints; checkpoint the whole run");
        }
    }

    /**
     * The run whose parts ({@link #forwardPart} or {@link #reversePart} of one direction, settings and seed) are
     * {@code parts}, in chain order: their final weights concatenated and summarized on the host as the CPU backend
     * summarizes them, so a split run on the CPU gives the estimate and standard error of the whole run to the bit. The
     * trace points pool the parts' sums (equal to the whole run's up to rounding), the work and transfers add up,
     * the seconds are the longest part's, and the visited bound is the parts' best (at least the whole run's: each part
     * climbs from its own best states).
     */
    public static AnnealingResult combine(List<AnnealingResult> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no parts to combine");
        }
        AnnealingResult first = parts.get(0);
        int chains = 0;
        long sweeps = 0;
        long transferBytes = 0;
        double seconds = 0;
        OptionalDouble bound = OptionalDouble.empty();
        for (AnnealingResult part : parts) {
            if (part.method() != first.method() || part.seed() != first.seed() || part.steps() != first.steps()
                    || part.trace().size() != first.trace().size() || !part.path().equals(first.path())) {
                throw new IllegalArgumentException("parts of different runs: " + first.method() + " seed " + first.seed()
                        + " and " + part.method() + " seed " + part.seed());
            }
            chains = Math.addExact(chains, part.chains());
            sweeps += part.sweeps();
            transferBytes += part.transferBytes();
            seconds = Math.max(seconds, part.seconds());
            if (part.visitedBound().isPresent()) {
                bound = OptionalDouble.of(Math.max(part.visitedBound().getAsDouble(), bound.orElse(Double.NEGATIVE_INFINITY)));
            }
        }
        double[] logW = new double[chains];
        int at = 0;
        for (AnnealingResult part : parts) {
            double[] lw = part.logWeights();
            System.arraycopy(lw, 0, logW, at, lw.length);
            at += lw.length;
        }
        List<TracePoint> trace = new ArrayList<>();
        for (int i = 0; i < first.trace().size(); i++) {
            trace.add(pooled(parts, i));
        }
        WeightSummary s = WeightSummary.of(logW);
        double logZ = logZ(first.method(), first.path(), first.logZ0(), s);
        return new AnnealingResult(first.method(), first.backend(), first.path(), first.schedule(), logZ,
                s.logMeanStdErr(), s.ess(), first.logZ0(), chains, first.steps(), sweeps, first.seed(), seconds, logW, trace,
                first.start(), transferBytes, bound, Optional.empty());
    }

    /**
     * The estimate of final weights summarized by {@code s}: forward {@code log Z_0 + log mean w}, reverse
     * {@code log Z_0 - log mean w}; degenerate weights are an {@link EstimationException}.
     */
    private static double logZ(Method method, String path, double logZ0, WeightSummary s) {
        if (s.degenerate()) {
            throw new EstimationException(method + " on " + path + ": the importance weights are degenerate (log-sum "
                    + s.logSum() + "); the model or schedule produced no usable weight");
        }
        return method == Method.AIS ? logZ0 + s.logMean() : logZ0 - s.logMean();
    }

    /**
     * Trace point i of the parts pooled: a part of n chains whose running {@code log mean w} is m and ESS e has
     * {@code LSE(lw) = m + log n} and {@code LSE(2 lw) = 2 LSE(lw) - log e}; the energies' means and variances (from
     * their standard errors) pool by chain counts.
     */
    private static TracePoint pooled(List<AnnealingResult> parts, int i) {
        double[] sums = new double[parts.size()];
        double[] squares = new double[parts.size()];
        int chains = 0;
        double energy = 0;
        for (int p = 0; p < parts.size(); p++) {
            AnnealingResult part = parts.get(p);
            TracePoint t = part.trace().get(i);
            sums[p] = t.logRatio() + Math.log(part.chains());
            // a part whose weights are all zero adds nothing (its ESS is not a number)
            squares[p] = sums[p] == Double.NEGATIVE_INFINITY ? sums[p] : 2 * sums[p] - Math.log(t.ess());
            chains += part.chains();
            energy += t.energy() * part.chains();
        }
        energy /= chains;
        double spread = 0;
        for (AnnealingResult part : parts) {
            TracePoint t = part.trace().get(i);
            double d = t.energy() - energy;
            spread += part.chains() * (t.energyStdErr() * t.energyStdErr() * part.chains() + d * d);
        }
        TracePoint at = parts.get(0).trace().get(i);
        WeightSummary s = new WeightSummary(chains, LogSpace.logSumExp(sums, sums.length),
                LogSpace.logSumExp(squares, squares.length));
        return new TracePoint(at.step(), at.beta(), s.logMean(), s.ess(), energy, Math.sqrt(spread / chains) / Math.sqrt(chains));
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
        return annealForward(path, 0, settings.chains(), listener, null);
    }

    /** A forward run and its chains' end states, for a reverse run that starts from them ({@link Start.Forward}). */
    record ForwardEnd(AnnealingResult result, float[] states) {
        /** {@code chains} reverse starts drawn from the end states by weight, then {@code sweeps} transitions. */
        Start.Given start(int chains, int dimension, int sweeps) {
            return Start.fromForward(states, result.logWeights(), dimension, chains, sweeps, result.seed());
        }
    }

    /**
     * The forward pass behind a {@link Start.Forward}: these settings under a key derived from the seed
     * ({@link StreamTag#REVERSE_START}), so that a reverse run's start shares no draw with the forward run an estimator
     * reads beside it (BAR, the bounds and the histogram estimator treat the two directions as independent), with the
     * chains' end states.
     */
    ForwardEnd forwardStart(TemperedPath path, ProgressListener listener) {
        var starter = new AnnealedImportanceSampling(new Settings(settings.chains(), settings.schedule(),
                Philox.derive(settings.seed(), StreamTag.REVERSE_START, 2), settings.tracePoints()));
        float[][] end = new float[1][];
        AnnealingResult result = starter.annealForward(path, 0, settings.chains(), listener, states -> end[0] = states);
        return new ForwardEnd(result, end[0]);
    }

    private AnnealingResult annealForward(TemperedPath path, int firstChain, int m, ProgressListener listener,
                                          Consumer<float[]> endStates) {
        path.backend().require(footprint(path, m), "ais with " + m + " chains on " + path.description());
        long started = System.nanoTime();
        long bytes = path.backend().transferredBytes();
        long seed = settings.seed();
        path.requireSteps(1L + settings.schedule().steps());
        try (TemperedPath.Chains chains = path.chains(firstChain, m); ParticleVector logW = path.backend().vector(m);
             Run run = new Run(path, logW, m, listener, true, Method.AIS, "base")) {
            Optional<AnnealingState> resumed = run.resumeState();
            if (resumed.isPresent()) {
                run.restore(chains, resumed.get());
            } else {
                chains.sampleBase(seed, 0);
                run.begin("base", 0, OptionalDouble.empty(), 0);
            }
            run.anneal(chains, seed, 1);
            if (endStates != null) {
                endStates.accept(chains.states());
            }
            return run.finish(started, bytes, path.visitedBound(chains));
        }
    }

    /**
     * {@link #reverse} without the check. A {@link Start.Forward} runs the forward pass of these settings first (without
     * checkpoints: a resumed run repeats it to the bit), and its transitions count as the start's burn-in.
     */
    AnnealingResult annealReverse(TemperedPath path, Start start, ProgressListener listener) {
        if (start instanceof Start.Forward f) {
            return annealReverse(path, f, forwardStart(path, ProgressListener.part(listener, 0, 2)),
                    ProgressListener.part(listener, 1, 2));
        }
        return annealReverse(path, start, 0, settings.chains(), listener, 0, 0);
    }

    /** Reverse annealing from {@code end} ({@link #forwardStart}) as {@code start} says; its work counts as burn-in. */
    AnnealingResult annealReverse(TemperedPath path, Start.Forward start, ForwardEnd end, ProgressListener listener) {
        return annealReverse(path, end.start(settings.chains(), path.dimension(), start.sweeps()), 0, settings.chains(),
                listener, end.result().sweeps(), end.result().seconds()).startedFrom(end.result());
    }

    /**
     * Reverse annealing of chains {@code firstChain ..} from a start, {@code startSweeps} transitions and
     * {@code startSeconds} spent making the start before (a forward start's forward pass).
     */
    private AnnealingResult annealReverse(TemperedPath path, Start start, int firstChain, int m,
                                          ProgressListener listener, long startSweeps, double startSeconds) {
        path.backend().require(footprint(path, m), "raise with " + m + " chains on " + path.description());
        long started = System.nanoTime();
        long bytes = path.backend().transferredBytes();
        long seed = Philox.derive(settings.seed(), StreamTag.REVERSE, 0);
        path.requireSteps(1L + start.sweeps() + settings.schedule().steps());
        try (TemperedPath.Chains chains = path.chains(firstChain, m); ParticleVector logW = path.backend().vector(m);
             Run run = new Run(path, logW, m, listener, false, Method.RAISE, startKey(start))) {
            Optional<AnnealingState> resumed = run.resumeState();
            if (resumed.isPresent()) {
                run.restore(chains, resumed.get());
            } else {
                String startName;
                if (start instanceof Start.Exact) {
                    // the whole run's samples, of which this batch takes its rows: exact sampling is for small models
                    float[] samples = path.exactTargetSamples(settings.chains(), seed).orElseThrow(() -> new UserException(
                            "exact target samples are not available for " + path.description()
                                    + "; start reverse annealing from Gibbs chains or given states"));
                    chains.load(rows(samples, firstChain, m, path.dimension()));
                    startName = "exact";
                } else if (start instanceof Start.Given given) {
                    chains.load(rows(given.states(), firstChain, m, path.dimension()));
                    startName = given.description() + (given.sweeps() > 0 ? ":" + given.sweeps() : "");
                } else if (start instanceof Start.Gibbs) {
                    chains.sampleBase(seed, 0);
                    startName = "gibbs:" + start.sweeps();
                } else {
                    throw new IllegalArgumentException("a reverse run from the forward run's end states needs them: " + start);
                }
                if (start.sweeps() > 0) {
                    chains.transition(1.0, start.sweeps(), seed, 1);
                }
                run.begin(startName, startSweeps + (long) start.sweeps() * path.transitionsPerStep() * m,
                        path.visitedBound(chains), startSeconds);
            }
            run.anneal(chains, seed, 1 + start.sweeps());
            return run.finish(started, bytes, run.startBound());
        }
    }

    /** Rows {@code first .. first + count - 1} of row-major states of {@code dimension} values each. */
    private static float[] rows(float[] states, int first, int count, int dimension) {
        if (first == 0 && (long) count * dimension == states.length) {
            return states;
        }
        return Arrays.copyOfRange(states, first * dimension, (first + count) * dimension);
    }

    /** State of one annealing pass. */
    private final class Run implements AutoCloseable {
        private final TemperedPath path;
        private final ParticleBackend backend;
        private final ParticleVector logW;
        /** The chains' slopes and log densities at a traced β, that β, and zero log weights for plain means. */
        private final ParticleVector slope;
        private final ParticleVector logF;
        private final ParticleVector level;
        private final ParticleVector uniform;
        private final int m;
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

        Run(TemperedPath path, ParticleVector logW, int m, ProgressListener listener, boolean forward, Method method,
            String startKey) {
            this.path = path;
            this.backend = path.backend();
            this.logW = logW;
            this.m = m;
            this.listener = listener;
            this.forward = forward;
            this.method = method;
            this.fingerprint = checkpoints.fingerprint(runFingerprint(path, method, startKey));
            ParticleVector[] made = new ParticleVector[4];
            try {
                made[0] = backend.vector(m);
                made[1] = backend.vector(m);
                made[2] = backend.vector(1);
                made[3] = backend.vector(m);
            } catch (RuntimeException | Error e) {
                // what was allocated before the failure goes back
                for (ParticleVector v : made) {
                    if (v != null) {
                        v.close();
                    }
                }
                throw e;
            }
            this.slope = made[0];
            this.logF = made[1];
            this.level = made[2];
            this.uniform = made[3];
            backend.fill(uniform, 0, m, 0.0);
        }

        /** The unweighted mean and variance over chains of the energy {@code -d log f_β/dβ} at β of their states. */
        private WeightedMoments energy(TemperedPath.Chains chains, double beta) {
            backend.fill(level, 0, 1, beta);
            chains.levels(level, 1, logF, slope);
            backend.scale(slope, 0, m, -1);
            return backend.moments(uniform, slope, 0, 1, m);
        }

        @Override
        public void close() {
            for (ParticleVector v : new ParticleVector[] {slope, logF, level, uniform}) {
                v.close();
            }
        }

        Optional<AnnealingState> resumeState() {
            return store.resume(fingerprint);
        }

        /** A fresh run: the chains are at their start, the weights zero; {@code seconds} spent before it. */
        void begin(String startName, long burnInSweeps, OptionalDouble bound, double seconds) {
            secondsBefore = seconds;
            start = startName;
            burnIn = burnInSweeps;
            startBound = bound;
            backend.fill(logW, 0, m, 0.0);
        }

        /**
         * A resumed run: the chains, weights, trace and counts of the checkpoint, whose sizes must be this run's (a
         * finished pass, {@code nextStep = K + 1}, only reads its result).
         */
        void restore(TemperedPath.Chains chains, AnnealingState state) {
            int k = settings.schedule().steps();
            if (state.nextStep() < 1 || state.nextStep() > k + 1 || state.logW().length != m
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
            int stride = Math.max(1, k / settings.tracePoints());
            // an energy costs about half a transition (an RBM's product xW): at most about ENERGY_POINTS of them
            int points = (k + stride - 1) / stride;
            int energyStride = stride * Math.max(1, (points + ENERGY_POINTS - 1) / ENERGY_POINTS);
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
                    // the last step moves no chain: its states are still the previous β's, so it has no energy
                    WeightedMoments e = transition && i % energyStride == 0 ? energy(chains, to)
                            : new WeightedMoments(Double.NaN, Double.NaN);
                    trace.add(new TracePoint(i, to, s.logMean(), s.ess(), e.mean(), Math.sqrt(e.variance() / m)));
                    listener.progress(i, k, forward ? path.logZ0() + s.logMean() : Double.NaN, s.ess());
                }
                if (checkpoints.save() != null && i < k) {
                    long now = System.nanoTime();
                    if ((now - lastSave) * 1e-9 >= checkpoints.everySeconds()) {
                        save(chains, i + 1, secondsBefore + (now - runStarted) * 1e-9);
                        lastSave = System.nanoTime();
                    }
                }
            }
            if (checkpoints.save() != null && store.savesFinished()) {
                save(chains, k + 1, secondsBefore + (System.nanoTime() - runStarted) * 1e-9);
            }
        }

        private void save(TemperedPath.Chains chains, int next, double seconds) {
            store.save(new AnnealingState(fingerprint, next, chains.states(), backend.download(logW, m), trace, transitions,
                    seconds, start, burnIn, startBound.orElse(Double.NaN)));
        }

        AnnealingResult finish(long startedNanos, long bytesBefore, OptionalDouble visitedBound) {
            WeightSummary s = backend.summarize(logW, m);
            double logZ = logZ(method, path.description(), path.logZ0(), s);
            double[] lw = backend.download(logW, m);
            double seconds = secondsBefore + (System.nanoTime() - startedNanos) * 1e-9;
            return new AnnealingResult(method, backend.name(), path.description(), settings.schedule().name(), logZ,
                    s.logMeanStdErr(), s.ess(), path.logZ0(), m, settings.schedule().steps(),
                    transitions * m + burnIn, settings.seed(), seconds, lw, trace, start,
                    backend.transferredBytes() - bytesBefore, visitedBound, Optional.empty());
        }
    }

    /**
     * This run's settings in a checkpoint's fingerprint: the method, chains, schedule (its β's digested), seed, the path
     * (model, base and transitions per step) and the backend, whose float rounding the bits depend on.
     */
    private Map<String, String> runFingerprint(TemperedPath path, Method method, String startKey) {
        Map<String, String> run = new LinkedHashMap<>();
        run.put("method", method.toString());
        run.put("chains", Integer.toString(settings.chains()));
        run.put("schedule", Checkpointing.scheduleKey(settings.schedule()));
        run.put("seed", Long.toString(settings.seed()));
        run.put("start", startKey);
        run.put("model", path.model().fingerprint().replace(';', ','));
        run.put("transitions-per-step", Integer.toString(path.transitionsPerStep()));
        run.put("backend", path.backend().name());
        return run;
    }

    /** A reverse start as the run's draws depend on it: its kind and its burn-in. */
    private static String startKey(Start start) {
        String kind = start instanceof Start.Exact ? "exact" : start instanceof Start.Given given ? given.description()
                : start instanceof Start.Forward ? "forward" : "gibbs";
        return kind + ":" + start.sweeps();
    }
}
