package org.logz.train;

import java.util.ArrayList;
import java.util.List;

import org.logz.backend.Betas;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.Tempering;
import org.logz.backend.TemperingSteps;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.tempered.Buffers;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.LevelStatistics;
import org.logz.estimate.tempered.StageResult;
import org.logz.estimate.tempered.TemperedCoordinator;
import org.logz.estimate.tempered.TemperedPart;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.estimate.tempered.TemperedStage;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * log Z of an RBM while it trains, by Rao-Blackwellized tempered sampling on chains that persist across parameter
 * updates (Carlson et al. 2016, §4.4). The chains start as a tempered-sampling run does ({@link TemperedSampling}: an
 * annealing pass, then the initial rounds of §2.4 until the occupancies settle) on the first model; after each update
 * they run {@code sweeps} iterations under the new parameters (a Gibbs sweep at the chain's β_k, then a level drawn from
 * {@code q(β_k | x)}, eq. 7), and {@code log Ẑ} takes the paper's partial step toward the RTS estimate of those
 * iterations (eq. 12): {@code Ẑ_k ← Ẑ_k (r_0 ĉ_k / (r_k ĉ_0))^α}, α = 0.2 by default. Since eq. 12 reads
 * {@code E_k = log Ẑ_k + log(r_0 ĉ_k / (r_k ĉ_0))}, the step is an exponential moving average of the per-update
 * estimates, {@code log Ẑ ← (1 - α) log Ẑ + α E}: it keeps the chains' level weights near the moving parameters.
 * Departing from the paper, an update counts each level's occupancy as at least a tenth of a sample.
 *
 * <p>What a table reports is {@link #measure}: RTS at the current parameters from further iterations, with the
 * batch-means error over independent groups of chains (chain r in group r mod G, as in {@link TemperedSampling}).
 * Departing from the paper, which plots the moving average itself: the average lags parameters that change from update
 * to update by about their change over 1/α updates, which no error over the chains can see.
 */
public final class RtsTracker implements AutoCloseable {
    /**
     * @param chains      tempered chains (at least 4)
     * @param levels      inverse temperatures K, linearly spaced from 0 to 1
     * @param sweeps      iterations after each update
     * @param measure     iterations of the first round of each {@link #measure}
     * @param alpha       the partial update's exponent, in (0, 1]
     * @param groups      independent groups of chains behind the standard error (2 to chains / 2)
     * @param roundSweeps iterations of the first initial round on the first model
     * @param rounds      cap on the initial rounds, each twice as long as the one before
     * @param seed        Philox key of the chains
     */
    public record Settings(int chains, int levels, int sweeps, int measure, double alpha, int groups, int roundSweeps,
                           int rounds, long seed) {
        public Settings {
            if (chains < 4) {
                throw new UserException("tracking needs at least 4 chains (2 groups of 2), got " + chains);
            }
            if (groups < 2 || 2 * groups > chains) {
                throw new UserException("tracking's " + chains + " chains make 2 to " + chains / 2 + " groups of at "
                        + "least 2, got " + groups);
            }
            if (levels < 2 || levels > 100_000) {
                throw new UserException("tracking needs from 2 to 100000 levels, got " + levels);
            }
            if (sweeps < 1 || measure < 1) {
                throw new UserException("tracking needs at least one sweep per update and per measurement, got "
                        + sweeps + " and " + measure);
            }
            if (!(alpha > 0 && alpha <= 1)) {
                throw new UserException("the partial update's α must lie in (0, 1], got " + alpha);
            }
            // the initial rounds' own checks, with their messages, before any work
            temperedSettings(chains, levels, roundSweeps, rounds, groups, seed);
        }

        /**
         * The paper's tracking, α = 0.2, on {@code levels} linear levels, measured from 50 iterations in
         * {@link #groups(int)} groups, after initial rounds of 50, 100, 200 and 400 iterations at most.
         */
        public static Settings of(int chains, int levels, int sweeps, long seed) {
            return new Settings(chains, levels, sweeps, 50, 0.2, groups(chains), 50, 4, seed);
        }

        /** The groups behind the error of {@code chains} chains: 10, or fewer to keep at least 2 chains in each. */
        public static int groups(int chains) {
            return Math.max(2, Math.min(10, chains / 2));
        }

        TemperedSampling.Settings initial() {
            return temperedSettings(chains, levels, roundSweeps, rounds, groups, seed);
        }

        private static TemperedSampling.Settings temperedSettings(int chains, int levels, int roundSweeps, int rounds,
                                                                  int groups, long seed) {
            return new TemperedSampling.Settings(chains, Schedule.linear(levels - 1), null, roundSweeps, rounds, 1,
                    groups, 0, seed, Method.RTS);
        }
    }

    /**
     * A measurement ({@link #measure}).
     *
     * @param logZ      the RTS estimate of log Z
     * @param stdErr    its batch-means standard error over the chain groups
     * @param deviation {@code max_k |r_k - ĉ_k|} of its last round: at least 0.1/K where the rounds ran out before the
     *                  chains settled under the parameters, and the estimate may be off by more than its error
     * @param rounds    rounds the measurement ran
     * @param updates   updates tracked so far
     * @param visitedBound a lower bound of log Z from the chains' states ({@link TemperedRbm#stateBound})
     */
    public record Estimate(double logZ, double stdErr, double deviation, int rounds, long updates,
                           double visitedBound) {
    }

    private final ParticleBackend backend;
    private final BaseRate baseRate;
    private final Settings settings;
    private final int m;
    private final int k;
    private final int groups;
    private final int statisticsLength;
    private final double[] betas;
    private final double[] logPrior;
    private final List<AutoCloseable> buffers = new ArrayList<>();
    private final ParticleMatrix x;
    private final ParticleVector levelBetas;
    private final ParticleVector logLevelWeight;
    private final ParticleVector chainBetas;
    private final ParticleVector logF;
    private final ParticleVector slope;
    private final ParticleVector statistics;
    private final IndexVector[] level = new IndexVector[2];
    private final Tempering[] moves = new Tempering[2];
    private final double[] logZHat;
    private int current;
    private int step;
    private long updates;
    private long chainSweeps;
    private boolean closed;

    /**
     * Starts the chains on {@code initial}, whose tempered path runs from {@code baseRate} (the data's), and sets
     * {@code log Ẑ} by the annealing pass and initial rounds of a tempered-sampling run.
     */
    public RtsTracker(ParticleBackend backend, Rbm initial, BaseRate baseRate, Settings settings) {
        this.backend = backend;
        this.baseRate = baseRate;
        this.settings = settings;
        this.m = settings.chains();
        this.k = settings.levels();
        this.groups = settings.groups();
        TemperedSampling.Settings start = settings.initial();
        this.betas = start.ladder().betas();
        this.logPrior = start.logPrior();
        this.statisticsLength = TemperingSteps.statisticsLength(m, k, groups);
        TemperedPart.State state;
        TemperedCoordinator coordinator = new TemperedCoordinator(start, ProgressListener.NONE);
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(initial, baseRate));
             TemperedPart part = new TemperedSampling(start).part(path, 0, m)) {
            while (!(coordinator.stage() instanceof TemperedStage.Final f)) {
                StageResult r = part.run(coordinator.stage(), TemperedPart.Stretches.NONE);
                coordinator.accept(List.of(r));
            }
            logZHat = f.logZHat();
            state = part.state();
        }
        step = state.step();
        try {
            x = add(backend.matrix(m, initial.visible()));
            levelBetas = add(backend.vector(k));
            logLevelWeight = add(backend.vector(k));
            chainBetas = add(backend.vector(m));
            logF = add(backend.vector(m * k));
            slope = add(backend.vector(m * k));
            ParticleVector probabilities = add(backend.vector(m * k));
            statistics = add(backend.vector(statisticsLength));
            level[0] = add(backend.indices(m));
            level[1] = add(backend.indices(m));
            for (int i = 0; i < 2; i++) {
                moves[i] = new Tempering(logF, slope, logLevelWeight, levelBetas, level[i], level[1 - i], chainBetas,
                        probabilities, statistics, groups);
            }
            backend.upload(state.states(), m, x);
            backend.upload(betas, levelBetas);
            backend.upload(state.levels(), level[0]);
            backend.gather(levelBetas, level[0], m, chainBetas, 0);
        } catch (RuntimeException | Error e) {
            Buffers.release(buffers, e);
            throw e;
        }
    }

    private <T extends AutoCloseable> T add(T buffer) {
        return Buffers.add(buffers, buffer);
    }

    /** Chain sweeps run so far after the start (the tracking's cost, beside the training's own sweeps). */
    public long chainSweeps() {
        return chainSweeps;
    }

    /**
     * Moves the chains under {@code model}'s parameters and takes the partial step of {@code log Ẑ}, each level's
     * occupancy counted as at least a tenth of one sample ({@link LevelStatistics#rts(double[], double[], double)}).
     *
     * @throws UserException where the run's iterations would exceed the random streams' 2^31 steps
     */
    public void update(Rbm model) {
        LevelStatistics all = LevelStatistics.sum(iterate(model, settings.sweeps()));
        double[] estimate = all.rts(logZHat, logPrior, 0.1 / all.samples());
        for (int i = 0; i < k; i++) {
            logZHat[i] += settings.alpha() * (estimate[i] - logZHat[i]);
        }
        updates++;
    }

    /**
     * {@code log Z} of {@code model} from further iterations under it, in the rounds of a tempered-sampling run (§2.4):
     * round t runs {@code measure·2^(t-1)} iterations, sets {@code log Ẑ} by the full RTS step over its first half and
     * reads the RTS estimate (eq. 12) of all chains over its second, its standard error the spread of the groups'
     * estimates over √G. Rounds stop once the occupancies of the second half are within 0.1/K of the prior (the
     * stopping rule of {@link TemperedSampling}), at most {@value #MAX_ROUNDS}. The moving average of
     * {@link #update} lags parameters that change from update to update (on the digits with a learning rate of 0.05 it
     * sat 0.1 from the exact log Z, 40 to 100 of the groups' errors); and where they change fast, one round is not
     * enough: PCD at a learning rate of 0.01 from the 784×20 CD-1 fixture moved log Z by 14 nats in an epoch, and
     * rounds that stopped when their two halves agreed within two errors left the estimate 13 nats off, the top
     * level occupied at 5 times its prior weight.
     */
    public Estimate measure(Rbm model) {
        int length = settings.measure();
        for (int round = 1; ; round++, length *= 2) {
            int settle = length / 2;
            if (settle > 0) {
                LevelStatistics first = LevelStatistics.sum(iterate(model, settle));
                System.arraycopy(first.rts(logZHat, logPrior, 0.1 / first.samples()), 0, logZHat, 0, k);
            }
            LevelStatistics[] byGroup = iterate(model, length - settle);
            LevelStatistics all = LevelStatistics.sum(byGroup);
            double deviation = all.deviation(logPrior);
            if (deviation < TemperedResult.STOP / k || round == MAX_ROUNDS) {
                List<double[]> curves = new ArrayList<>(groups);
                for (LevelStatistics g : byGroup) {
                    curves.add(g.rts(logZHat, logPrior));
                }
                LevelEstimate rts = LevelEstimate.of(Method.RTS, all.rts(logZHat, logPrior), curves);
                double bound = new TemperedRbm(model, baseRate).stateBound(backend.download(x, m), m)
                        .orElse(Double.NEGATIVE_INFINITY);
                return new Estimate(rts.logZ(), rts.stdErr(), deviation, round, updates, bound);
            }
        }
    }

    /** Rounds of a measurement at most, each twice as long as the one before. */
    public static final int MAX_ROUNDS = 5;

    /** Updates tracked so far. */
    public long updates() {
        return updates;
    }

    /** The running value: {@code log Ẑ} at β = 1 after the last update. */
    public double tracked() {
        return logZHat[k - 1];
    }

    /** {@code sweeps} iterations under {@code model} at the current {@code log Ẑ}: each chain group's statistics. */
    private LevelStatistics[] iterate(Rbm model, int sweeps) {
        if (sweeps < 1 || (long) step + sweeps > Integer.MAX_VALUE) {
            throw new UserException("tracking cannot run " + sweeps + " sweeps from step " + step + " of the random "
                    + "streams' 2^31; track every few updates or with fewer sweeps");
        }
        double[] weight = new double[k];
        for (int i = 0; i < k; i++) {
            weight[i] = logPrior[i] - logZHat[i];
        }
        backend.upload(weight, logLevelWeight);
        backend.fill(statistics, 0, statisticsLength, 0.0);
        try (TemperedKernel kernel = Kernels.tempered(backend, new TemperedRbm(model, baseRate))) {
            for (int i = 0; i < sweeps; i++) {
                kernel.transition(x, m, Betas.of(chainBetas), 1, settings.seed(), step, 0);
                kernel.levels(x, m, levelBetas, k, logF, slope);
                backend.temper(moves[current], m, k, settings.seed(), step);
                current = 1 - current;
                step++;
            }
        }
        chainSweeps += (long) sweeps * m;
        return LevelStatistics.byGroup(betas, backend.download(statistics, statisticsLength), m, groups, sweeps);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Buffers.closeAll(buffers);
    }
}
