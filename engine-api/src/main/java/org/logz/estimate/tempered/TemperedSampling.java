package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Function;

import org.logz.UserException;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.Tempering;
import org.logz.backend.WeightSummary;
import org.logz.estimate.EstimationException;
import org.logz.estimate.Method;
import org.logz.estimate.ProgressListener;
import org.logz.memory.Footprint;
import org.logz.numeric.LogSpace;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * Rao-Blackwellized Tempered Sampling (Carlson, Stinson, Pakman &amp; Paninski 2016, Algorithm 1) with
 * many parallel chains on any {@link TemperedPath}, and the estimators that read the same samples:
 * RTS (eq. 12), thermodynamic integration, TI-RB (eq. 21) and MBAR (§3.3).
 *
 * <p>Every chain carries a state x and a level k. One iteration is an x-transition at the chain's
 * own β_k, then a new level drawn from {@code q(β_k | x) ∝ f_k(x) r_k / Ẑ_k} (eq. 7), accumulating
 * the Rao-Blackwellized occupancies {@code ĉ_k = (1/N) Σ q(β_k | x)} (eq. 9) and the slopes TI needs.
 *
 * <ol>
 *   <li>Initialization: the chains anneal once from the base over the ladder (one transition per
 *       level), and the running AIS estimate at each β_k is the starting {@code log Ẑ_k}. The paper
 *       starts from {@code Ẑ_k = 1} "or a better estimate, if known"; on a 784-visible RBM whose log Z
 *       is in the hundreds, occupancies at Ẑ = 1 underflow and the rounds need many more sweeps.</li>
 *   <li>Initial rounds (§2.4): levels restart uniformly at random while states are kept, the
 *       round's iterations estimate ĉ, and eq. 12 updates Ẑ; they stop when
 *       {@code max_k |r_k - ĉ_k| < 0.1/K} or after {@code maxRounds}. Departing from the paper's
 *       rounds of fixed length, round t runs {@code roundSweeps·2^t} iterations and ĉ is read from its
 *       second half only: states move along the ladder slowly, so a short round sees the occupancy
 *       of where the states were, not of the new Ẑ, and fixed short rounds leave Ẑ wandering by the
 *       noise of each round (on the 784×20 MNIST RBM, occupancies off by a factor of 6 after 20 rounds
 *       of 50 sweeps; within 10% after three doubling rounds).</li>
 *   <li>Final run: {@code sweeps} iterations at fixed Ẑ. The chains fall into G = min(batches,
 *       chains) groups (chain r in group r mod G) whose statistics and MBAR samples are kept apart.
 *       Each estimator is read from all of them and from each group alone; its standard error is the
 *       spread of the group estimates over √G (batch means). Departing from batches that are
 *       consecutive stretches of the run: a chain's state carries over from one stretch to the next,
 *       so stretch estimates are correlated and their spread understated the error (RMS z-scores of
 *       1.7 for RTS and 1.9 for MBAR over 30 seeds on the 6×6 Ising model); chains are independent
 *       once Ẑ is fixed.</li>
 * </ol>
 * Philox steps come from one counter: 0 for the base draw, then one path step per iteration (n transitions, DESIGN §2).
 */
public final class TemperedSampling {
    /**
     * @param chains      parallel chains (at least 2)
     * @param ladder      the inverse temperatures β_0 = 0 &lt; ... &lt; β_{K-1} = 1 (K = steps + 1 levels)
     * @param logPrior    log r_k, K finite values (normalized here), or null for the uniform prior
     * @param roundSweeps iterations of the first initial round
     * @param maxRounds   cap on the initial rounds, each twice as long as the one before (0 runs none: Ẑ
     *                    from the annealing pass)
     * @param sweeps      iterations of the final run
     * @param batches     groups of chains behind the standard errors (at least 2; at most the chains)
     * @param mbarSamples chain states kept (thinned evenly) for MBAR; 0 skips MBAR
     * @param seed        Philox key
     * @param headline    the estimator the result reports as its estimate: rts, ti, ti-rb or mbar
     */
    public record Settings(int chains, Schedule ladder, double[] logPrior, int roundSweeps, int maxRounds, int sweeps,
                           int batches, int mbarSamples, long seed, Method headline) {
        /** The estimators a run reads, in order (MBAR only when samples are kept). */
        public static final List<Method> ESTIMATORS = List.of(Method.RTS, Method.TI, Method.TI_RB, Method.MBAR);

        public Settings {
            if (!ESTIMATORS.contains(headline)) {
                throw new UserException("no tempered-sampling estimator named " + headline + "; use one of "
                        + ESTIMATORS);
            }
            if (headline == Method.MBAR && mbarSamples == 0) {
                throw new UserException("the mbar estimate needs kept samples (mbarSamples above 0)");
            }
            if (chains < 2) {
                throw new UserException("tempered sampling needs at least 2 chains, got " + chains);
            }
            if (roundSweeps < 2) {
                throw new UserException("sweeps per initial round must be at least 2 (a round reads only its second "
                        + "half), got " + roundSweeps);
            }
            if (maxRounds < 0 || maxRounds > 16) {
                throw new UserException("initial rounds must be between 0 and 16 (each twice as long as the "
                        + "one before), got " + maxRounds);
            }
            if (batches < 2) {
                throw new UserException("batch means need at least 2 batches, got " + batches);
            }
            if (sweeps < 1) {
                throw new UserException("the final run needs at least one sweep, got " + sweeps);
            }
            if (mbarSamples < 0) {
                throw new UserException("MBAR samples cannot be negative, got " + mbarSamples);
            }
            logPrior = normalizedPrior(logPrior, ladder.steps() + 1);
            if ((long) chains * (ladder.steps() + 1) > Integer.MAX_VALUE) {
                throw new UserException(chains + " chains × " + (ladder.steps() + 1) + " levels is too many "
                        + "values per buffer");
            }
            if ((long) roundSweeps * ((1L << maxRounds) - 1) > Integer.MAX_VALUE) {
                throw new UserException(maxRounds + " doubling rounds from " + roundSweeps + " sweeps are too "
                        + "many sweeps");
            }
        }

        /** RTS as the headline. */
        public Settings(int chains, Schedule ladder, double[] logPrior, int roundSweeps, int maxRounds, int sweeps,
                        int batches, int mbarSamples, long seed) {
            this(chains, ladder, logPrior, roundSweeps, maxRounds, sweeps, batches, mbarSamples, seed, Method.RTS);
        }

        public int levels() {
            return ladder.steps() + 1;
        }

        /** Iterations run and discarded between the last Ẑ update and the final run: a quarter of its length. */
        public int burnIn() {
            return sweeps / 4;
        }

        /** Iterations of the initial rounds if none converges: {@code roundSweeps·(2^maxRounds - 1)}. */
        public long initialSweepsCap() {
            return (long) roundSweeps * ((1L << maxRounds) - 1);
        }

        @Override
        public double[] logPrior() {
            return logPrior.clone();
        }

        private static double[] normalizedPrior(double[] logPrior, int levels) {
            if (logPrior == null) {
                double[] uniform = new double[levels];
                Arrays.fill(uniform, -Math.log(levels));
                return uniform;
            }
            if (logPrior.length != levels) {
                throw new UserException("the prior has " + logPrior.length + " entries for " + levels
                        + " levels");
            }
            for (double v : logPrior) {
                if (!Double.isFinite(v)) {
                    throw new UserException("every log prior weight must be finite, got " + v);
                }
            }
            double norm = LogSpace.logSumExp(logPrior);
            double[] out = new double[levels];
            for (int k = 0; k < levels; k++) {
                out[k] = logPrior[k] - norm;
            }
            return out;
        }
    }

    private final Settings settings;

    public TemperedSampling(Settings settings) {
        this.settings = settings;
    }

    /**
     * What a run allocates: the chains; per chain and level the log densities, slopes and level
     * probabilities; and on the heap the states kept for MBAR, held once as downloaded, once as the
     * K × N reduced potentials of the whole solve, and once more by the chain groups' solves.
     */
    public Footprint footprint(TemperedPath path) {
        long m = settings.chains();
        long k = settings.levels();
        long cells = Footprint.times(m, k);
        long vectors = Footprint.times(cells, 24) + Footprint.times(m, 24) + 64 * k;
        long mbar = Footprint.times(Footprint.times(settings.mbarSamples(), k), 8 * 4);
        return new Footprint(Footprint.times(m, path.bytesPerChain()), vectors, mbar + Footprint.times(cells, 8));
    }

    /**
     * Runs tempered sampling on {@code path}.
     *
     * @throws org.logz.UserException when the model moves no chains between levels
     *                                ({@link org.logz.model.TemperedModel#supportsTempering()})
     */
    public TemperedResult run(TemperedPath path, ProgressListener listener) {
        if (!path.model().supportsTempering()) {
            throw new org.logz.UserException("tempered sampling needs per-chain temperatures, which "
                    + path.description() + " does not have; use the annealing methods");
        }
        path.backend().require(footprint(path), "tempered sampling with " + settings.chains() + " chains on "
                + settings.levels() + " levels and " + settings.mbarSamples() + " MBAR samples on " + path.description());
        try (Run run = new Run(path, listener)) {
            return run.execute();
        }
    }

    /** The device buffers and host state of one run. */
    private final class Run implements AutoCloseable {
        private final TemperedPath path;
        private final ParticleBackend backend;
        private final ProgressListener listener;
        private final int m = settings.chains();
        private final int k = settings.levels();
        /** Groups of chains behind the standard errors (chain r in group r mod G). */
        private final int groups = Math.min(settings.batches(), settings.chains());
        private final double[] betas = settings.ladder().betas();
        private final double[] logPrior = settings.logPrior();
        private final long seed = settings.seed();
        private final long total;
        private final long startedNanos = System.nanoTime();
        private final long bytesBefore;
        private final TemperedPath.Chains chains;
        private final ParticleVector levelBetas;
        private final ParticleVector logLevelWeight;
        private final ParticleVector chainBetas;
        private final ParticleVector logF;
        private final ParticleVector slope;
        private final ParticleVector probabilities;
        private final ParticleVector statistics;
        private final IndexVector[] level = new IndexVector[2];
        /** Tempering moves alternate between the two level vectors: {@code moves[i]} reads level[i]. */
        private final Tempering[] moves = new Tempering[2];
        private int current;
        private int step;
        private long done;
        private long transitions;

        Run(TemperedPath path, ProgressListener listener) {
            this.path = path;
            this.backend = path.backend();
            this.listener = listener;
            this.bytesBefore = backend.transferredBytes();
            this.total = (k - 1) + settings.initialSweepsCap() + settings.burnIn() + settings.sweeps();
            path.requireSteps(total + 1);
            this.chains = path.chains(m);
            this.levelBetas = backend.vector(k);
            this.logLevelWeight = backend.vector(k);
            this.chainBetas = backend.vector(m);
            this.logF = backend.vector(m * k);
            this.slope = backend.vector(m * k);
            this.probabilities = backend.vector(m * k);
            this.statistics = backend.vector(4 * k * groups);
            this.level[0] = backend.indices(m);
            this.level[1] = backend.indices(m);
            backend.upload(betas, levelBetas);
            for (int i = 0; i < 2; i++) {
                moves[i] = new Tempering(logF, slope, logLevelWeight, levelBetas, level[i], level[1 - i], chainBetas,
                        probabilities, statistics, groups);
            }
        }

        TemperedResult execute() {
            double[] initialLogZ = anneal();
            double[] logZHat = initialLogZ.clone();
            int rounds = 0;
            boolean converged = false;
            double deviation = Double.NaN;
            for (; rounds < settings.maxRounds() && !converged; rounds++) {
                restartLevels();
                int length = settings.roundSweeps() << rounds;
                // the first half lets the states follow the new Ẑ; only the second half is read
                iterate(length / 2, logZHat, null);
                LevelStatistics s = LevelStatistics.sum(iterate(length - length / 2, logZHat, null));
                deviation = deviation(s.occupancy());
                converged = deviation < TemperedResult.STOP / k;
                logZHat = s.rts(logZHat, logPrior);
            }
            done = (k - 1) + settings.initialSweepsCap();
            if (rounds == 0) {
                // without rounds the chains would start at level 0 holding states annealed to β = 1
                restartLevels();
            }

            // as in the rounds, the states first follow the final Ẑ before anything is read
            if (settings.burnIn() > 0) {
                iterate(settings.burnIn(), logZHat, null);
            }
            int b = Math.min(settings.batches(), settings.sweeps());
            LevelStatistics[] group = null;
            int storeEvery = settings.mbarSamples() == 0 ? 0
                    : (int) Math.max(1, (long) m * settings.sweeps() / settings.mbarSamples());
            Keep keep = storeEvery == 0 ? null : new Keep(MbarSamples.groups(k, groups), storeEvery);
            for (int i = 0; i < b; i++) {
                int length = settings.sweeps() / b + (i < settings.sweeps() % b ? 1 : 0);
                LevelStatistics[] stretch = iterate(length, logZHat, keep);
                group = group == null ? stretch : LevelStatistics.plus(group, stretch);
                listener.progress(done, total, LevelStatistics.sum(group).rts(logZHat, logPrior)[k - 1], Double.NaN);
            }
            List<MbarSamples> kept = keep == null ? List.of() : keep.groups();
            return result(initialLogZ, logZHat, List.of(group), kept, rounds, converged, deviation);
        }

        /** Every chain to a level drawn uniformly at random (§2.4); states are kept. */
        private void restartLevels() {
            backend.randomIndices(k, m, seed, step, level[current]);
            backend.gather(levelBetas, level[current], m, chainBetas, 0);
        }

        /** The annealing pass over the ladder: log Ẑ_k from the running AIS estimate at β_k. */
        private double[] anneal() {
            double[] logZ = new double[k];
            logZ[0] = path.logZ0();
            try (ParticleVector logW = backend.vector(m)) {
                chains.sampleBase(seed, step++);
                backend.fill(logW, 0, m, 0.0);
                for (int i = 1; i < k; i++) {
                    chains.anneal(betas[i - 1], betas[i], logW, true, seed, step++);
                    WeightSummary s = backend.summarize(logW, m);
                    if (s.degenerate()) {
                        throw new EstimationException("tempered sampling on " + path.description() + ": the annealing "
                                + "pass that initializes log Ẑ produced degenerate weights at β = " + betas[i]);
                    }
                    logZ[i] = path.logZ0() + s.logMean();
                    done++;
                }
            }
            transitions += (long) (k - 1) * m * path.transitionsPerStep();
            listener.progress(done, total, logZ[k - 1], Double.NaN);
            return logZ;
        }

        /** {@code count} iterations at fixed Ẑ; returns what each group of chains accumulated. */
        private LevelStatistics[] iterate(int count, double[] logZHat, Keep keep) {
            double[] weight = new double[k];
            for (int i = 0; i < k; i++) {
                weight[i] = logPrior[i] - logZHat[i];
            }
            backend.upload(weight, logLevelWeight);
            backend.fill(statistics, 0, 4 * k * groups, 0.0);
            for (int i = 0; i < count; i++) {
                chains.transition(chainBetas, 1, seed, step);
                chains.levels(levelBetas, k, logF, slope);
                if (keep != null && i % keep.every == 0) {
                    MbarSamples.addByChain(keep.groups, backend.download(logF, m * k), backend.download(level[current], m));
                }
                backend.temper(moves[current], m, k, seed, step);
                current = 1 - current;
                step++;
                done++;
            }
            transitions += (long) count * m * path.transitionsPerStep();
            double[] values = backend.download(statistics, 4 * k * groups);
            for (double v : values) {
                if (!Double.isFinite(v)) {
                    throw new EstimationException("tempered sampling on " + path.description() + ": a level statistic is "
                            + v + "; the model's log densities are not finite");
                }
            }
            LevelStatistics[] out = new LevelStatistics[groups];
            for (int g = 0; g < groups; g++) {
                long members = (m - g + groups - 1) / groups;
                out[g] = new LevelStatistics(betas, Arrays.copyOfRange(values, 4 * k * g, 4 * k * (g + 1)),
                        count * members);
            }
            return out;
        }

        private double deviation(double[] occupancy) {
            double worst = 0;
            for (int i = 0; i < k; i++) {
                worst = Math.max(worst, Math.abs(Math.exp(logPrior[i]) - occupancy[i]));
            }
            return worst;
        }

        private TemperedResult result(double[] initialLogZ, double[] logZHat, List<LevelStatistics> group,
                                      List<MbarSamples> kept, int rounds, boolean converged, double deviation) {
            LevelStatistics all = LevelStatistics.sum(group.toArray(LevelStatistics[]::new));
            double logZ0 = path.logZ0();
            List<LevelEstimate> estimates = new ArrayList<>();
            double[] rts = all.rts(logZHat, logPrior);
            estimates.add(LevelEstimate.of(Method.RTS, rts, read(group, s -> s.rts(logZHat, logPrior))));
            estimates.add(LevelEstimate.of(Method.TI, all.ti(logZ0), read(group, s -> s.ti(logZ0))));
            estimates.add(LevelEstimate.of(Method.TI_RB, all.tiRb(logZ0), read(group, s -> s.tiRb(logZ0))));
            int stored = 0;
            double mbarResidual = Double.NaN;
            if (!kept.isEmpty()) {
                MbarSamples union = new MbarSamples(k);
                kept.forEach(union::addAll);
                stored = union.size();
                MbarSamples.Curve mbar = union.curve(logZ0, rts);
                mbarResidual = mbar.residual();
                List<double[]> groupCurves = new ArrayList<>(kept.size());
                for (MbarSamples samples : kept) {
                    MbarSamples.Curve c = samples.curve(logZ0, mbar.logZ());
                    mbarResidual = Math.max(mbarResidual, c.residual());
                    groupCurves.add(c.logZ());
                }
                estimates.add(LevelEstimate.of(Method.MBAR, mbar.logZ(), groupCurves));
            }
            OptionalDouble bound = path.visitedBound(chains);
            double seconds = (System.nanoTime() - startedNanos) * 1e-9;
            return new TemperedResult(settings.headline(), backend.name(), path.description(), logZ0, estimates, betas,
                    logPrior, all.occupancy(), all.visits(), initialLogZ, rounds, converged, deviation, m, group.size(),
                    stored, mbarResidual, transitions, seed, seconds, backend.transferredBytes() - bytesBefore, bound);
        }

        private static <T> List<double[]> read(List<T> groups, Function<T, double[]> estimator) {
            List<double[]> curves = new ArrayList<>(groups.size());
            for (T b : groups) {
                curves.add(estimator.apply(b));
            }
            return curves;
        }

        @Override
        public void close() {
            chains.close();
            for (ParticleVector v : new ParticleVector[] {levelBetas, logLevelWeight, chainBetas, logF, slope, probabilities,
                    statistics}) {
                v.close();
            }
            level[0].close();
            level[1].close();
        }
    }

    /** Which iterations keep their states for MBAR, and the chain groups they go to. */
    private record Keep(List<MbarSamples> groups, int every) {
    }
}
