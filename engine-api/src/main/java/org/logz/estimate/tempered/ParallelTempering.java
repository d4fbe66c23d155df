package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.memory.Footprint;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * Parallel tempering (replica exchange; Swendsen &amp; Wang 1986, Geyer 1991) on any {@link TemperedPath} whose kernel
 * moves chains at their own temperatures, and log Z from its samples by Bennett's acceptance ratio between
 * neighbouring levels ({@link PtSums}, the headline), MBAR (Shirts &amp; Chodera 2008) and thermodynamic integration:
 * the way reference values for large RBMs and the Potts model are made (Habeck 2017 §6).
 *
 * <p>M independent ladders of K levels hold one chain per level each (N = M·K chains). One iteration is a transition
 * of every chain at its level's β, the chains' log densities at every level, and a round of swaps between neighbouring
 * levels ({@link ReplicaExchange}: the non-reversible even-odd scheme). The run:
 * <ol>
 *   <li>a warm-up that walks each chain from the base up the ladder to its level (K - 1 iterations);</li>
 *   <li>tuning rounds ({@code tuningRounds}, round t of {@code roundSweeps·2^t} iterations) after each of which the
 *       ladder moves to equal steps of the communication barrier ({@link LadderTuning}); none keeps the given ladder;</li>
 *   <li>a burn-in of a quarter of the final run at the final ladder, then the final run of {@code sweeps}
 *       iterations, whose samples are read.</li>
 * </ol>
 * The acceptance ratio reads every iteration of the final run with Bennett's constants from the burn-in; MBAR solves
 * on about {@code mbarSamples} kept states (every level's log density of each, {@code u_kn = -log f_k(x_n)}); TI
 * integrates each level's mean {@code d log f_β/dβ} by the trapezoid rule. All are read from all ladders and from
 * each ladder alone: the ladders never exchange states, so their estimates are independent and the spread of the M
 * estimates over √M, scaled by √((M-1)/(M-3)) as for {@link org.logz.estimate.Islands}, is each estimator's standard
 * error (batch means over ladders); TI's value at β = 1 is the
 * trapezoid extrapolated to a fine grid ({@link PtSums#tiExtrapolated}).
 *
 * <p>Philox steps: 0 for the base draw, then one path step per iteration (its transitions, and the swaps under their
 * own tag). The swaps are decided on the host from log densities the backend computes, so a backend that computes the
 * same bits gives the same run.
 */
public final class ParallelTempering {
    /** The fewest ladders whose spread gives z-scores (Student's t) a finite variance; and the most. */
    public static final int MIN_LADDERS = 4;
    public static final int MAX_LADDERS = 10_000;

    /** Swap rate of a neighbouring pair below which replicas barely cross it ({@code poor-swaps}). */
    public static final double POOR_SWAP_RATE = 0.02;

    /**
     * @param ladders      independent ladders M (4 to 10,000: their spread is the standard error)
     * @param ladder       the inverse temperatures the run starts from, β_0 = 0 &lt; ... &lt; β_{K-1} = 1 (K levels)
     * @param tuningRounds rounds that move the ladder to equal swap rates (0 keeps {@code ladder})
     * @param roundSweeps  iterations of the first tuning round; each later one is twice as long
     * @param sweeps       iterations of the final run (at least 2: swaps alternate between even and odd pairs)
     * @param mbarSamples  chain states kept (thinned evenly) for MBAR; 0 skips MBAR
     * @param seed         Philox key
     */
    public record Settings(int ladders, Schedule ladder, int tuningRounds, int roundSweeps, int sweeps, int mbarSamples,
                           long seed) {
        public Settings {
            if (ladders < MIN_LADDERS || ladders > MAX_LADDERS) {
                throw new UserException("parallel tempering needs " + MIN_LADDERS + " to " + MAX_LADDERS + " ladders (their "
                        + "spread is the standard error, and with fewer its z-scores have no finite variance), got "
                        + ladders);
            }
            if (ladder.steps() < 1) {
                throw new UserException("a parallel-tempering ladder needs at least 2 levels");
            }
            if (tuningRounds < 0 || tuningRounds > 16) {
                throw new UserException("tuning rounds must be between 0 and 16 (each twice as long as the one before), "
                        + "got " + tuningRounds);
            }
            if (roundSweeps < 2) {
                throw new UserException("sweeps per tuning round must be at least 2, got " + roundSweeps);
            }
            if (sweeps < 2) {
                throw new UserException("parallel tempering's final run needs at least 2 sweeps (swaps alternate between "
                        + "the even and the odd pairs of levels), got " + sweeps);
            }
            if (mbarSamples < 0) {
                throw new UserException("MBAR samples cannot be negative, got " + mbarSamples);
            }
            if ((long) ladders * levels(ladder) * levels(ladder) > Integer.MAX_VALUE) {
                throw new UserException(ladders + " ladders of " + levels(ladder) + " levels need too many log densities "
                        + "per iteration (chains × levels)");
            }
            if (iterations(ladder, tuningRounds, roundSweeps, sweeps) > Integer.MAX_VALUE) {
                throw new UserException("the tuning rounds and the final run are too many iterations");
            }
        }

        private static int levels(Schedule ladder) {
            return ladder.steps() + 1;
        }

        private static long iterations(Schedule ladder, int rounds, int roundSweeps, int sweeps) {
            return levels(ladder) + (long) roundSweeps * ((1L << rounds) - 1) + sweeps / 4 + (long) sweeps;
        }

        /** Levels K. */
        public int levels() {
            return levels(ladder);
        }

        /** Chains N = M·K. */
        public int chains() {
            return ladders * levels();
        }

        /** Iterations run and discarded before the final run: a quarter of its length. */
        public int burnIn() {
            return sweeps / 4;
        }

        /** Iterations of the whole run (base draw, warm-up, tuning rounds, burn-in, final run): its Philox steps. */
        public long totalIterations() {
            return iterations(ladder, tuningRounds, roundSweeps, sweeps);
        }
    }

    private final Settings settings;

    public ParallelTempering(Settings settings) {
        this.settings = settings;
    }

    /**
     * What a run allocates: the chains; per chain and level the log densities and slopes; per chain the β's, picks and
     * indices; on the heap the kept states' log densities, held as downloaded, as MBAR's potentials of the whole solve
     * and of the ladders' solves.
     */
    public Footprint footprint(TemperedPath path) {
        long n = settings.chains();
        long k = settings.levels();
        long cells = Footprint.times(n, k);
        long vectors = Footprint.times(cells, 16) + Footprint.times(n, 8 + 24 + 8) + 8 * k;
        long kept = Math.min((long) settings.mbarSamples(), Footprint.times(n, settings.sweeps()));
        return new Footprint(Footprint.times(n, path.bytesPerChain()), vectors,
                Footprint.times(Footprint.times(kept, k), 8 * 4) + Footprint.times(n, 16));
    }

    /**
     * Runs parallel tempering on {@code path}.
     *
     * @throws UserException        when the model moves no chains at their own temperatures
     * @throws EstimationException  when the log densities are not finite
     */
    public PtResult run(TemperedPath path, ProgressListener listener) {
        if (!path.model().supportsTempering()) {
            throw new UserException(path.description() + " has no kernel for chains at their own temperatures; parallel "
                    + "tempering needs one");
        }
        path.backend().require(footprint(path), "parallel tempering with " + settings.chains() + " chains on "
                + settings.levels() + " levels of " + path.description());
        path.requireSteps(settings.totalIterations() + 1);
        try (Run run = new Run(path, listener)) {
            return run.run();
        }
    }

    /** One run's buffers and host state. */
    private final class Run implements AutoCloseable {
        private final TemperedPath path;
        private final ParticleBackend backend;
        private final ProgressListener listener;
        private final long started = System.nanoTime();
        private final long bytesBefore;
        private final int m = settings.ladders();
        private final int k = settings.levels();
        private final int n = settings.chains();
        private final long total = settings.totalIterations();
        private final ReplicaExchange exchange;
        private final TemperedPath.Chains chains;
        private final ParticleVector levelBetas;
        private final ParticleVector chainBetas;
        private final ParticleVector logF;
        private final ParticleVector slope;
        private final ParticleVector picked;
        private final IndexVector index;
        /** Every buffer above, in the order made. */
        private final List<AutoCloseable> made = new ArrayList<>();
        private double[] betas;
        private int step;
        /** Iterations done; the base draw is the first. */
        private long done = 1;
        private int stored;

        Run(TemperedPath path, ProgressListener listener) {
            this.path = path;
            this.backend = path.backend();
            this.listener = listener;
            this.bytesBefore = backend.transferredBytes();
            this.exchange = new ReplicaExchange(m, k);
            this.betas = settings.ladder().betas();
            try {
                chains = Buffers.add(made, path.chains(n));
                levelBetas = Buffers.add(made, backend.vector(k));
                chainBetas = Buffers.add(made, backend.vector(n));
                logF = Buffers.add(made, backend.vector(n * k));
                slope = Buffers.add(made, backend.vector(n * k));
                picked = Buffers.add(made, backend.vector(3 * n));
                index = Buffers.add(made, backend.indices(3 * n));
            } catch (RuntimeException | Error e) {
                Buffers.release(made, e);
                throw e;
            }
        }

        PtResult run() {
            long seed = settings.seed();
            chains.sampleBase(seed, step++);
            warmUp();
            List<Double> barriers = new ArrayList<>();
            for (int r = 0; r < settings.tuningRounds(); r++) {
                exchange.resetCounts();
                iterate(settings.roundSweeps() << r, null, null);
                double[] acceptance = exchange.acceptance();
                barriers.add(LadderTuning.barrier(acceptance));
                betas = LadderTuning.tune(betas, acceptance).betas();
            }
            PtSums burnIn = new PtSums(m, betas, null);
            iterate(settings.burnIn(), burnIn, null);
            exchange.resetCounts();
            // Bennett's constants from the burn-in's slopes; with no burn-in any constant is valid, only noisier
            double[] constants = burnIn.iterations() > 0 ? burnIn.constants() : new double[k - 1];
            PtSums sums = new PtSums(m, betas, constants);
            List<MbarSamples> kept = MbarSamples.groups(k, m);
            iterate(settings.sweeps(), sums, kept);
            return result(sums, kept, barriers);
        }

        /** Chain at level l follows the ladder up from the base to β_l, one level per iteration, without swaps. */
        private void warmUp() {
            backend.upload(betas, levelBetas);
            int[] levels = exchange.levels();
            double[] b = new double[n];
            for (int i = 1; i < k; i++) {
                for (int c = 0; c < n; c++) {
                    b[c] = betas[Math.min(levels[c], i)];
                }
                backend.upload(b, chainBetas);
                chains.transition(chainBetas, 1, settings.seed(), step++);
                progress();
            }
        }

        /**
         * {@code count} iterations at the current ladder: transitions, every level's log density, sums (none while the
         * ladder is tuned), swaps; every {@code every}-th state of the final run kept for MBAR ({@code kept} null
         * elsewhere), so that at most about {@code mbarSamples} are kept.
         */
        private void iterate(int count, PtSums sums, List<MbarSamples> kept) {
            long states = (long) n * settings.sweeps();
            int every = kept == null || settings.mbarSamples() == 0 ? 0
                    : (int) Math.max(1, (states + settings.mbarSamples() - 1) / settings.mbarSamples());
            backend.upload(betas, levelBetas);
            backend.upload(exchange.chainBetas(betas), chainBetas);
            for (int i = 0; i < count; i++) {
                chains.transition(chainBetas, 1, settings.seed(), step);
                chains.levels(levelBetas, k, logF, slope);
                backend.upload(exchange.neighbourIndices(), index);
                backend.gather(logF, index, 3 * n, picked, 0);
                double[] neighbours = backend.download(picked, 3 * n);
                requireFinite(neighbours);
                int[] levels = exchange.levels();
                if (sums != null) {
                    backend.gather(slope, index, n, picked, 0);
                    double[] slopes = backend.download(picked, n);
                    requireFinite(slopes);
                    sums.add(levels, slopes, neighbours);
                }
                if (every > 0 && i % every == 0) {
                    double[] rows = backend.download(logF, n * k);
                    requireFinite(rows);
                    MbarSamples.addByLadder(kept, rows, levels, k);
                    stored += n;
                }
                exchange.swap(neighbours, settings.seed(), step);
                backend.upload(exchange.chainBetas(betas), chainBetas);
                step++;
                progress();
            }
        }

        private void requireFinite(double[] values) {
            for (double v : values) {
                if (!Double.isFinite(v)) {
                    throw new EstimationException("parallel tempering on " + path.description() + ": a log density or "
                            + "slope is " + v + "; the model's log densities are not finite");
                }
            }
        }

        /** Progress without a running estimate: the readings come at the end. */
        private void progress() {
            done++;
            if (done % 64 == 0 || done == total) {
                listener.progress(done, total, Double.NaN, Double.NaN);
            }
        }

        private PtResult result(PtSums sums, List<MbarSamples> kept, List<Double> barriers) {
            double logZ0 = path.logZ0();
            double[] meanSlope = sums.meanSlopes();
            double[] tiCurve = sums.tiExtrapolated(logZ0, meanSlope);
            double[] barCurve = sums.bar(logZ0);
            List<LevelEstimate> estimates = new ArrayList<>();
            estimates.add(LevelEstimate.of(Method.BAR, barCurve, sums.perLadder(g -> sums.bar(logZ0, g))));
            estimates.add(LevelEstimate.of(Method.TI, tiCurve,
                    sums.perLadder(g -> sums.tiExtrapolated(logZ0, sums.meanSlopes(g)))));
            double mbarResidual = Double.NaN;
            if (stored > 0) {
                MbarSamples union = new MbarSamples(k);
                kept.forEach(union::addAll);
                MbarSamples.Curve mbar = union.curve(logZ0, barCurve);
                mbarResidual = mbar.residual();
                List<double[]> ladders = new ArrayList<>();
                for (MbarSamples ladder : kept) {
                    MbarSamples.Curve c = ladder.curve(logZ0, mbar.logZ());
                    mbarResidual = Math.max(mbarResidual, c.residual());
                    ladders.add(c.logZ());
                }
                estimates.add(LevelEstimate.of(Method.MBAR, mbar.logZ(), ladders));
            }
            // the spread of M ladders has M - 1 degrees of freedom: scaled so that the z-scores have unit variance
            double scale = Replicates.studentScale(m);
            estimates.replaceAll(e -> e.scaled(scale));
            double[] acceptance = exchange.acceptance();
            OptionalDouble bound = path.visitedBound(chains);
            long transitions = (settings.totalIterations() - 1) * n * path.transitionsPerStep();
            double seconds = (System.nanoTime() - started) * 1e-9;
            listener.progress(total, total, barCurve[k - 1], Double.NaN);
            return new PtResult(Method.BAR, backend.name(), path.description(), logZ0, estimates, betas, meanSlope,
                    acceptance, LadderTuning.barrier(acceptance), exchange.roundTrips(),
                    barriers.stream().mapToDouble(Double::doubleValue).toArray(), m, n, settings.sweeps(), stored,
                    mbarResidual, transitions, settings.seed(), seconds, backend.transferredBytes() - bytesBefore, bound);
        }

        /** Closes every buffer, each even where another's close failed. */
        @Override
        public void close() {
            Buffers.closeAll(made);
        }
    }
}
