package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.List;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.Tempering;
import org.logz.backend.TemperingSteps;
import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.path.TemperedPath;
import org.logz.resample.Resampling;

/**
 * Chains {@code firstChain .. firstChain + count - 1} of a tempered sampling run ({@link TemperedSampling}) on one
 * backend: their states, levels and sums, and the stages they run ({@link TemperedStage}). Row r draws from chain
 * {@code firstChain + r}'s Philox streams and {@code firstChain} is a multiple of {@code BLOCK_MEMBERS · G}, so a part
 * keeps every chain's draws, group and block, and the parts of a run return the whole run's sums to the bit. Philox
 * steps come from one counter: 0 for the base draw, then one path step per iteration (DESIGN §2), which the part's
 * {@link State} carries from one stage to the next where a run's stages run in different processes.
 */
public final class TemperedPart implements AutoCloseable {
    /** What a part carries between stages: the chains' states, their levels, and the next Philox step. */
    public record State(float[] states, int[] levels, int step) {
    }

    /**
     * The final run part-way: stretches done, the sums so far ({@code TemperingSteps.statisticsLength} values) and the
     * iterations kept for MBAR so far, each {@code count × K} log densities with the levels the states were drawn at.
     */
    public record FinalProgress(int stretches, double[] statistics, List<double[]> keptLogF, List<int[]> keptLevels) {
        public FinalProgress {
            keptLogF = List.copyOf(keptLogF);
            keptLevels = List.copyOf(keptLevels);
        }
    }

    /**
     * Called after each stretch of the final run but the last with the stretches and iterations done so far and the
     * part's sums; {@link #finalProgress} may be read from it.
     */
    @FunctionalInterface
    public interface Stretches {
        Stretches NONE = (stretches, iterations, statistics) -> { };

        void finished(int stretches, int iterations, double[] statistics);
    }

    private final TemperedSampling.Settings settings;
    private final TemperedPath path;
    private final ParticleBackend backend;
    private final int first;
    private final int m;
    private final int k;
    private final int groups;
    private final int statisticsLength;
    private final double[] betas;
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
    /** The final run's MBAR samples so far, while it runs. */
    private Keep keep;
    /** Where the next final run continues, for a run resumed part-way through it; null for one from the start. */
    private FinalProgress resumeFinal;

    /**
     * Allocates the part's buffers on {@code path}'s backend.
     *
     * @throws UserException where the chains do not lie in the run or {@code firstChain} is not on a block boundary
     */
    public TemperedPart(TemperedSampling.Settings settings, TemperedPath path, int firstChain, int count) {
        this.settings = settings;
        this.path = path;
        this.backend = path.backend();
        this.k = settings.levels();
        this.groups = settings.groups();
        long block = settings.blockChains();
        if (count < 1 || firstChain < 0 || (long) firstChain + count > settings.chains() || firstChain % block != 0) {
            throw new UserException("chains " + firstChain + " + " + count + " are no part of a tempered run of "
                    + settings.chains() + " chains in blocks of " + block);
        }
        this.first = firstChain;
        this.m = count;
        this.betas = settings.ladder().betas();
        this.statisticsLength = TemperingSteps.statisticsLength(m, k, groups);
        path.requireSteps(settings.totalIterations() + 1);
        this.chains = path.chains(firstChain, m);
        List<AutoCloseable> made = new ArrayList<>(List.of(chains));
        try {
            this.levelBetas = Buffers.add(made, backend.vector(k));
            this.logLevelWeight = Buffers.add(made, backend.vector(k));
            this.chainBetas = Buffers.add(made, backend.vector(m));
            this.logF = Buffers.add(made, backend.vector(m * k));
            this.slope = Buffers.add(made, backend.vector(m * k));
            this.probabilities = Buffers.add(made, backend.vector(m * k));
            this.statistics = Buffers.add(made, backend.vector(statisticsLength));
            this.level[0] = Buffers.add(made, backend.indices(m));
            this.level[1] = Buffers.add(made, backend.indices(m));
        } catch (RuntimeException | Error e) {
            Buffers.release(made, e);
            throw e;
        }
        backend.upload(betas, levelBetas);
        for (int i = 0; i < 2; i++) {
            moves[i] = new Tempering(logF, slope, logLevelWeight, levelBetas, level[i], level[1 - i], chainBetas,
                    probabilities, statistics, groups, first);
        }
    }

    /** The part's state after its last stage. */
    public State state() {
        return new State(chains.states(), backend.download(level[current], m), step);
    }

    /** Continues from {@code state} (of {@link #state()} on a part of the same chains). */
    public void restore(State state) {
        if (state.levels().length != m) {
            throw new UserException("a tempered part of " + m + " chains cannot continue from the state of "
                    + state.levels().length + " chains");
        }
        if (state.step() < 0 || state.step() > settings.totalIterations()) {
            throw new UserException("a tempered part cannot continue from step " + state.step() + " of a run of "
                    + settings.totalIterations());
        }
        chains.load(state.states());
        current = 0;
        backend.upload(state.levels(), level[0]);
        backend.gather(levelBetas, level[0], m, chainBetas, 0);
        step = state.step();
    }

    /**
     * The next final run continues after {@code progress.stretches()} stretches with its sums and kept samples, from
     * the state {@link #restore} set: it neither restarts the levels nor burns in again.
     */
    public void resumeFinal(FinalProgress progress) {
        int b = Math.min(settings.batches(), settings.sweeps());
        if (progress.stretches() < 1 || progress.stretches() >= b || progress.statistics().length != statisticsLength
                || progress.keptLogF().size() != progress.keptLevels().size()) {
            throw new UserException("a tempered part of " + m + " chains cannot continue a final run after "
                    + progress.stretches() + " of " + b + " stretches with " + progress.statistics().length + " sums");
        }
        for (int i = 0; i < progress.keptLogF().size(); i++) {
            if (progress.keptLogF().get(i).length != m * k || progress.keptLevels().get(i).length != m) {
                throw new UserException("a tempered part of " + m + " chains cannot continue a final run from kept "
                        + "samples of another size");
            }
        }
        resumeFinal = progress;
    }

    /** The final run after {@code stretches} stretches, read while it runs (from {@link Stretches}). */
    public FinalProgress finalProgress(int stretches) {
        if (keep == null) {
            throw new IllegalStateException("no final run is under way");
        }
        return new FinalProgress(stretches, sums(), keep.logF, keep.levels);
    }

    /** Runs {@code stage} and returns what it gathered; {@code stretches} hears of the final run's progress. */
    public StageResult run(TemperedStage stage, Stretches stretches) {
        long bytesBefore = backend.transferredBytes();
        double[] none = new double[0];
        if (stage instanceof TemperedStage.Anneal) {
            double[][] blocks = anneal();
            return result(blocks[0], blocks[1], none, List.of(), List.of(), Double.NaN, bytesBefore);
        }
        if (stage instanceof TemperedStage.Round r) {
            restartLevels();
            int length = settings.roundSweeps() << r.round();
            // the first half lets the states follow the new Ẑ; only the second half is read
            iterate(length / 2, r.logZHat(), null);
            restartSums();
            iterate(length - length / 2, r.logZHat(), null);
            return result(none, none, sums(), List.of(), List.of(), Double.NaN, bytesBefore);
        }
        return finalRun((TemperedStage.Final) stage, stretches, bytesBefore);
    }

    private StageResult finalRun(TemperedStage.Final f, Stretches stretches, long bytesBefore) {
        double[] logZHat = f.logZHat();
        int b = Math.min(settings.batches(), settings.sweeps());
        int every = settings.mbarSamples() == 0 ? 0
                : (int) Math.max(1, (long) settings.chains() * settings.sweeps() / settings.mbarSamples());
        int from = 0;
        keep = new Keep(new ArrayList<>(), new ArrayList<>(), every);
        if (resumeFinal != null) {
            from = resumeFinal.stretches();
            backend.upload(resumeFinal.statistics(), statistics);
            keep.logF.addAll(resumeFinal.keptLogF());
            keep.levels.addAll(resumeFinal.keptLevels());
            resumeFinal = null;
        } else {
            if (f.restart()) {
                restartLevels();
            }
            // as in the rounds, the states first follow the final Ẑ before anything is read
            iterate(settings.burnIn(), logZHat, null);
            restartSums();
        }
        int done = 0;
        for (int i = 0; i < b; i++) {
            int length = settings.sweeps() / b + (i < settings.sweeps() % b ? 1 : 0);
            done += length;
            if (i < from) {
                continue;
            }
            iterate(length, logZHat, every == 0 ? null : keep, done - length);
            if (stretches != Stretches.NONE && i < b - 1) {
                stretches.finished(i + 1, done, sums());
            }
        }
        double bound = path.visitedBound(chains).orElse(Double.NaN);
        StageResult result = result(new double[0], new double[0], sums(), keep.logF, keep.levels, bound, bytesBefore);
        keep = null;
        return result;
    }

    private StageResult result(double[] annealMax, double[] annealSum, double[] sums, List<double[]> keptLogF,
                               List<int[]> keptLevels, double bound, long bytesBefore) {
        return new StageResult(backend.name(), path.description(), path.logZ0(), path.transitionsPerStep(), annealMax,
                annealSum, sums, keptLogF, keptLevels, bound, backend.transferredBytes() - bytesBefore);
    }

    /**
     * The annealing pass over the ladder: per block of chains and level, the largest log weight and
     * {@code Σ exp(logW - max)} in chain order ({@link TemperedCoordinator} reads the running AIS estimate from them).
     */
    private double[][] anneal() {
        int blocks = TemperingSteps.blocks(m, groups);
        long span = settings.blockChains();
        double[] max = new double[blocks * k];
        double[] sum = new double[blocks * k];
        try (ParticleVector logW = backend.vector(m)) {
            chains.sampleBase(settings.seed(), step++);
            backend.fill(logW, 0, m, 0.0);
            for (int i = 1; i < k; i++) {
                chains.anneal(betas[i - 1], betas[i], logW, true, settings.seed(), step++);
                double[] w = backend.download(logW, m);
                for (int b = 0; b < blocks; b++) {
                    int from = (int) (b * span);
                    int to = (int) Math.min(m, from + span);
                    double top = Double.NEGATIVE_INFINITY;
                    for (int r = from; r < to; r++) {
                        top = Math.max(top, w[r]);
                    }
                    double s = 0;
                    // a block whose weights are all zero adds nothing (and no NaN from -inf - -inf)
                    for (int r = from; r < to && top != Double.NEGATIVE_INFINITY; r++) {
                        s += Math.exp(w[r] - top);
                    }
                    max[b * k + i] = top;
                    sum[b * k + i] = s;
                }
            }
        }
        return new double[][] {max, sum};
    }

    /** Every chain to a level drawn uniformly at random (§2.4), chain c from its own stream; states are kept. */
    private void restartLevels() {
        int[] drawn = new int[m];
        Resampling.randomIndices(k, first, m, settings.seed(), step, drawn);
        backend.upload(drawn, level[current]);
        backend.gather(levelBetas, level[current], m, chainBetas, 0);
    }

    /** {@code count} iterations at fixed Ẑ, adding to the sums. */
    private void iterate(int count, double[] logZHat, Keep keep) {
        iterate(count, logZHat, keep, 0);
    }

    /**
     * {@code count} iterations at fixed Ẑ, adding to the sums; iteration {@code first + i} of the final run is kept
     * for MBAR when it is a multiple of {@code keep.every}, so that about {@code mbarSamples} states are kept in all.
     */
    private void iterate(int count, double[] logZHat, Keep keep, int first) {
        double[] logPrior = settings.logPrior();
        double[] weight = new double[k];
        for (int i = 0; i < k; i++) {
            weight[i] = logPrior[i] - logZHat[i];
        }
        backend.upload(weight, logLevelWeight);
        for (int i = 0; i < count; i++) {
            chains.transition(chainBetas, 1, settings.seed(), step);
            chains.levels(levelBetas, k, logF, slope);
            if (keep != null && (first + i) % keep.every == 0) {
                keep.logF.add(backend.download(logF, m * k));
                keep.levels.add(backend.download(level[current], m));
            }
            backend.temper(moves[current], m, k, settings.seed(), step);
            current = 1 - current;
            step++;
        }
    }

    /** Checks the sums of the iterations not read (first halves, burn-in) as {@link #sums()} does, then zeroes them. */
    private void restartSums() {
        sums();
        backend.fill(statistics, 0, statisticsLength, 0.0);
    }

    private double[] sums() {
        double[] values = backend.download(statistics, statisticsLength);
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new EstimationException("tempered sampling on " + path.description() + ": a level statistic is "
                        + v + "; the model's log densities are not finite");
            }
        }
        return values;
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

    /** The iterations of the final run kept for MBAR (every {@code every}-th of each stretch) and what they hold. */
    private record Keep(List<double[]> logF, List<int[]> levels, int every) {
    }
}
