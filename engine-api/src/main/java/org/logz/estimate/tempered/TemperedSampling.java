package org.logz.estimate.tempered;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.logz.backend.TemperingSteps;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.checkpoint.CheckpointFiles;
import org.logz.estimate.checkpoint.Checkpointing;
import org.logz.io.ContentDigest;
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
 *
 * <p>The chains couple only through Ẑ, so the run is written as stages ({@link TemperedStage}) that parts of the
 * chains run ({@link TemperedPart}) and a coordinator reads ({@link TemperedCoordinator}): one part here, or many
 * (Spark tasks, one stage per round), with the same bits, as every sum over chains is kept per block of chains.
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
     * @param headline    the estimator the result reports as its estimate, one of {@link #ESTIMATORS}
     * @param flatStart   whether log Ẑ starts at {@code log Z_0} on every level (Ẑ = 1 in Carlson et al.'s
     *                    normalization, §2.4) instead of at the annealing pass's estimate; the pass still runs, for
     *                    the chains' states
     */
    public record Settings(int chains, Schedule ladder, double[] logPrior, int roundSweeps, int maxRounds, int sweeps,
                           int batches, int mbarSamples, long seed, Method headline, boolean flatStart) {
        /** The estimators a run reads, in order (MBAR only when samples are kept). */
        public static final List<Method> ESTIMATORS = List.of(Method.RTS, Method.TS, Method.TI, Method.TI_RIEMANN,
                Method.TI_FRIEL, Method.TI_RB, Method.MBAR);

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
            if (flatStart && maxRounds == 0) {
                throw new UserException("a tempered run that starts from Ẑ = 1 needs initial rounds to find Ẑ");
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

        /** Ẑ from the annealing pass. */
        public Settings(int chains, Schedule ladder, double[] logPrior, int roundSweeps, int maxRounds, int sweeps,
                        int batches, int mbarSamples, long seed, Method headline) {
            this(chains, ladder, logPrior, roundSweeps, maxRounds, sweeps, batches, mbarSamples, seed, headline, false);
        }

        /** RTS as the headline, Ẑ from the annealing pass. */
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

        /** Iterations of a run whose initial rounds run to the cap: its Philox steps and progress total. */
        public long totalIterations() {
            return iterationsRun(maxRounds);
        }

        /** Iterations of a run with {@code rounds} initial rounds: annealing pass, rounds, burn-in, final run. */
        public long iterationsRun(int rounds) {
            return (levels() - 1) + (long) roundSweeps * ((1L << rounds) - 1) + burnIn() + sweeps;
        }

        /** Groups of chains behind the standard errors (chain r in group r mod G): {@code min(batches, chains)}. */
        public int groups() {
            return Math.min(batches, chains);
        }

        /**
         * Chains per block of the tempering sums ({@link TemperingSteps#BLOCK_MEMBERS} of each group): a run's chains
         * split into parts at these boundaries ({@code ChainPart.ranges} in {@code Estimation.chainParts}).
         */
        public long blockChains() {
            return (long) TemperingSteps.BLOCK_MEMBERS * groups();
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
    private final Checkpointing checkpoints;

    public TemperedSampling(Settings settings) {
        this(settings, Checkpointing.NONE);
    }

    /**
     * A run that saves its state to {@code checkpoints.save()} as it goes (after the annealing pass, after each initial
     * round and after each stretch of the final run, once {@code everySeconds} have passed since the last save) and
     * resumes from {@code checkpoints.resume()}.
     */
    public TemperedSampling(Settings settings, Checkpointing checkpoints) {
        this.settings = settings;
        this.checkpoints = checkpoints;
    }

    /**
     * What a run of {@code chains} of the chains allocates: the chains; per chain and level the log densities, slopes
     * and level probabilities, and per block of chains the tempering sums; and on the heap the states kept for MBAR,
     * held once as downloaded, once more as the coordinator files them by group, once as the K × N reduced potentials
     * of the whole solve, and once more by the chain groups' solves.
     */
    public Footprint footprint(TemperedPath path, int chains) {
        long m = chains;
        long k = settings.levels();
        long cells = Footprint.times(m, k);
        long sums = Footprint.times(TemperingSteps.statisticsLength(chains, settings.levels(), settings.groups()), 8);
        long vectors = Footprint.times(cells, 24) + Footprint.times(m, 24) + 64 * k + sums;
        // a part keeps its share of the MBAR samples
        long kept = (long) Math.ceil((double) settings.mbarSamples() * chains / settings.chains());
        long mbar = Footprint.times(Footprint.times(kept, k), 8 * 5);
        return new Footprint(Footprint.times(m, path.bytesPerChain()), vectors, mbar + Footprint.times(cells, 8));
    }

    /**
     * Runs tempered sampling on {@code path}: every chain in one part.
     *
     * @throws org.logz.base.UserException when the model moves no chains between levels
     *                                ({@link org.logz.model.TemperedModel#supportsTempering()})
     */
    public TemperedResult run(TemperedPath path, ProgressListener listener) {
        TemperedCoordinator coordinator = new TemperedCoordinator(settings, listener);
        String fingerprint = checkpoints.active() ? checkpoints.fingerprint(runFingerprint(path)) : null;
        try (TemperedPart part = part(path, 0, settings.chains())) {
            checkpoints.resumeTempered(fingerprint).ifPresent(state -> {
                coordinator.restore(state);
                part.restore(new TemperedPart.State(state.states(), state.levels(), state.step()));
                if (state.finalStretches() > 0) {
                    part.resumeFinal(new TemperedPart.FinalProgress(state.finalStretches(), state.statistics(),
                            state.keptLogF(), state.keptLevels()));
                }
            });
            long[] lastSave = {System.nanoTime()};
            TemperedPart.Stretches stretches = (stretch, iterations, statistics) -> {
                coordinator.stretch(iterations, statistics);
                if (saveDue(lastSave)) {
                    CheckpointFiles.write(checkpoints.save(), coordinator.checkpoint(fingerprint, part.state(),
                            part.finalProgress(stretch)));
                }
            };
            for (TemperedStage stage = coordinator.stage(); stage != null; stage = coordinator.stage()) {
                coordinator.accept(List.of(part.run(stage, stretches)));
                if (coordinator.stage() != null && saveDue(lastSave)) {
                    CheckpointFiles.write(checkpoints.save(), coordinator.checkpoint(fingerprint, part.state(), null));
                }
            }
        }
        return coordinator.result();
    }

    /** Whether a checkpoint is to be saved now; if so, now is the last save. */
    private boolean saveDue(long[] lastSave) {
        long now = System.nanoTime();
        if (checkpoints.save() == null || (now - lastSave[0]) * 1e-9 < checkpoints.everySeconds()) {
            return false;
        }
        lastSave[0] = now;
        return true;
    }

    /** What a checkpoint must match to resume this run: its settings, the model's content, the backend. */
    private Map<String, String> runFingerprint(TemperedPath path) {
        Map<String, String> run = new LinkedHashMap<>();
        run.put("method", settings.headline().toString());
        run.put("chains", Integer.toString(settings.chains()));
        run.put("ladder", settings.levels() + "/" + ContentDigest.of(settings.ladder().betas()));
        run.put("prior", ContentDigest.of(settings.logPrior()));
        run.put("rounds", settings.roundSweeps() + "x" + settings.maxRounds());
        run.put("initial-z", settings.flatStart() ? "one" : "ais");
        run.put("sweeps", Integer.toString(settings.sweeps()));
        run.put("batches", Integer.toString(settings.batches()));
        run.put("mbar-samples", Integer.toString(settings.mbarSamples()));
        run.put("seed", Long.toString(settings.seed()));
        run.put("model", path.model().fingerprint().replace(';', ','));
        run.put("transitions-per-step", Integer.toString(path.transitionsPerStep()));
        run.put("backend", path.backend().name());
        return run;
    }

    /**
     * Chains {@code firstChain .. firstChain + count - 1} of the run on {@code path}, their footprint checked against
     * the backend.
     *
     * @throws org.logz.base.UserException when the model moves no chains between levels or the chains do not fit
     */
    public TemperedPart part(TemperedPath path, int firstChain, int count) {
        if (!path.model().supportsTempering()) {
            throw new UserException("tempered sampling needs per-chain temperatures, which " + path.description()
                    + " does not have; use the annealing methods");
        }
        path.backend().require(footprint(path, count), "tempered sampling with " + count + " chains on "
                + settings.levels() + " levels and " + settings.mbarSamples() + " MBAR samples on " + path.description());
        return new TemperedPart(settings, path, firstChain, count);
    }

}
