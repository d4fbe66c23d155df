package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Function;

import org.logz.backend.TemperingSteps;
import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.checkpoint.TemperedState;

/**
 * The host side of a tempered sampling run ({@link TemperedSampling}): it hands the parts of the run their stages
 * ({@link TemperedStage}), reads what they return, updates {@code log Ẑ} after each initial round, and reads the
 * estimators from the final run. The parts' arrays are per block of chains and are concatenated in chain order before
 * anything is added, so one part holding every chain and many parts run anywhere give the same estimates to the bit on
 * the same backend (on CUDA, cuBLAS may choose another GEMM for another batch size), all but the visited-state bound,
 * which is the parts' best.
 */
public final class TemperedCoordinator {
    private final TemperedSampling.Settings settings;
    private final ProgressListener listener;
    private final int m;
    private final int k;
    private final int groups;
    private final double[] betas;
    private final double[] logPrior;
    private final long startedNanos = System.nanoTime();
    private double secondsBefore;
    private final long total;
    private TemperedStage stage = new TemperedStage.Anneal();
    private double[] initialLogZ;
    private double[] logZHat;
    private int rounds;
    private boolean converged;
    private double deviation = Double.NaN;
    private long done;
    private long bytes;
    private StageResult last;
    private TemperedResult result;

    public TemperedCoordinator(TemperedSampling.Settings settings, ProgressListener listener) {
        this.settings = settings;
        this.listener = listener;
        this.m = settings.chains();
        this.k = settings.levels();
        this.groups = settings.groups();
        this.betas = settings.ladder().betas();
        this.logPrior = settings.logPrior();
        this.total = settings.totalIterations();
    }

    /** The stage the parts run next; null once the run is over ({@link #result()}). */
    public TemperedStage stage() {
        return result == null ? stage : null;
    }

    /**
     * Reads what the parts returned from the current stage, in chain order, and moves to the next stage.
     *
     * @throws EstimationException where the annealing pass produced degenerate weights or the log densities were not
     *                             finite
     */
    public void accept(List<StageResult> parts) {
        if (result != null) {
            throw new IllegalStateException("the run is over");
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a stage needs the results of its parts");
        }
        last = parts.get(0);
        for (StageResult p : parts) {
            bytes += p.transferredBytes();
        }
        if (stage instanceof TemperedStage.Anneal) {
            initialLogZ = settings.flatStart() ? flat(last.logZ0())
                    : initialLogZ(concat(parts, StageResult::annealMax), concat(parts, StageResult::annealSum));
            logZHat = initialLogZ.clone();
            done = k - 1;
        } else if (stage instanceof TemperedStage.Round r) {
            int length = settings.roundSweeps() << r.round();
            LevelStatistics s = LevelStatistics.sum(read(concat(parts, StageResult::statistics), length - length / 2));
            deviation = s.deviation(logPrior);
            converged = deviation < TemperedResult.STOP / k;
            logZHat = s.rts(logZHat, logPrior);
            rounds++;
            done += length;
        } else {
            result = result(parts);
            return;
        }
        listener.progress(done, total, logZHat[k - 1], Double.NaN);
        stage = next();
    }

    /** Progress from a run of one part after a stretch of its final run: iterations done so far and its sums. */
    public void stretch(int iterations, double[] statistics) {
        listener.progress(k - 1 + settings.initialSweepsCap() + settings.burnIn() + iterations, total,
                LevelStatistics.sum(read(statistics, iterations)).rts(logZHat, logPrior)[k - 1], Double.NaN);
    }

    /**
     * The run as a checkpoint saves it, between stages ({@code progress} null) or part-way through the final run, with
     * the state of its one part.
     */
    public TemperedState checkpoint(String fingerprint, TemperedPart.State part, TemperedPart.FinalProgress progress) {
        if (initialLogZ == null || result != null) {
            throw new IllegalStateException("a checkpoint is saved after the annealing pass and before the result");
        }
        double seconds = secondsBefore + (System.nanoTime() - startedNanos) * 1e-9;
        return new TemperedState(fingerprint, initialLogZ, logZHat, rounds, converged, deviation, done, bytes, seconds,
                part.states(), part.levels(), part.step(), progress == null ? 0 : progress.stretches(),
                progress == null ? new double[0] : progress.statistics(),
                progress == null ? List.of() : progress.keptLogF(), progress == null ? List.of() : progress.keptLevels());
    }

    /**
     * Continues the run of a checkpoint: its log Ẑ, rounds and counts; the next stage follows from them (a final run
     * part-way continues through {@link TemperedPart#resumeFinal}).
     */
    public void restore(TemperedState state) {
        if (initialLogZ != null) {
            throw new IllegalStateException("a run is restored before its first stage");
        }
        if (state.initialLogZ().length != k || state.logZHat().length != k || state.rounds() < 0
                || state.rounds() > settings.maxRounds() || state.done() < 0 || state.done() > total) {
            throw new UserException("the checkpoint does not fit a run on " + k + " levels with up to "
                    + settings.maxRounds() + " initial rounds");
        }
        initialLogZ = state.initialLogZ();
        logZHat = state.logZHat();
        rounds = state.rounds();
        converged = state.converged();
        deviation = state.deviation();
        done = state.done();
        bytes = state.transferredBytes();
        secondsBefore = state.seconds();
        stage = next();
    }

    /** The run's result, once the final stage's parts are in. */
    public TemperedResult result() {
        if (result == null) {
            throw new IllegalStateException("the run is not over: its next stage is " + stage);
        }
        return result;
    }

    private TemperedStage next() {
        if (rounds < settings.maxRounds() && !converged) {
            return new TemperedStage.Round(rounds, logZHat);
        }
        return new TemperedStage.Final(logZHat, rounds == 0);
    }

    /** Ẑ_k = Z_0 at every level: Carlson et al.'s start (§2.4, Fig. 1), which the initial rounds correct. */
    private double[] flat(double logZ0) {
        double[] logZ = new double[k];
        Arrays.fill(logZ, logZ0);
        return logZ;
    }

    /** The running AIS estimate at each β_k, the blocks' sums added in block order. */
    private double[] initialLogZ(double[] max, double[] sum) {
        int blocks = TemperingSteps.blocks(m, groups);
        if (max.length != blocks * k) {
            throw new IllegalArgumentException("the parts returned " + max.length / k + " blocks of log weights for a run "
                    + "of " + blocks);
        }
        double[] logZ = new double[k];
        logZ[0] = last.logZ0();
        for (int i = 1; i < k; i++) {
            double top = Double.NEGATIVE_INFINITY;
            for (int b = 0; b < blocks; b++) {
                top = Math.max(top, max[b * k + i]);
            }
            double s = 0;
            for (int b = 0; b < blocks; b++) {
                if (max[b * k + i] != Double.NEGATIVE_INFINITY) {
                    s += sum[b * k + i] * Math.exp(max[b * k + i] - top);
                }
            }
            logZ[i] = last.logZ0() + top + Math.log(s) - Math.log(m);
            if (!Double.isFinite(logZ[i])) {
                throw new EstimationException("tempered sampling on " + last.description() + ": the annealing pass "
                        + "that initializes log Ẑ produced degenerate weights at β = " + betas[i]);
            }
        }
        return logZ;
    }

    /** Each group's sums over {@code iterations} iterations, from the blocks' sums. */
    private LevelStatistics[] read(double[] blockStatistics, long iterations) {
        return LevelStatistics.byGroup(betas, blockStatistics, m, groups, iterations);
    }

    private TemperedResult result(List<StageResult> parts) {
        List<LevelStatistics> group = List.of(read(concat(parts, StageResult::statistics), settings.sweeps()));
        LevelStatistics all = LevelStatistics.sum(group.toArray(LevelStatistics[]::new));
        double logZ0 = last.logZ0();
        List<LevelEstimate> estimates = new ArrayList<>();
        double[] rts = all.rts(logZHat, logPrior);
        estimates.add(LevelEstimate.of(Method.RTS, rts, read(group, s -> s.rts(logZHat, logPrior))));
        estimates.add(LevelEstimate.of(Method.TS, all.ts(logZHat, logPrior), read(group, s -> s.ts(logZHat, logPrior))));
        double[] ti = all.ti(logZ0);
        estimates.add(LevelEstimate.of(Method.TI, ti, read(group, s -> s.ti(logZ0))));
        // the Riemann sum is biased by its first-order discretization error whatever the samples; its error says so
        estimates.add(LevelEstimate.of(Method.TI_RIEMANN, all.tiRiemann(logZ0), read(group, s -> s.tiRiemann(logZ0)))
                .withSystematic(all.riemannError()));
        // Friel's correction and Richardson's extrapolation each remove the trapezoid's leading error; what separates
        // them is the error both leave, which the batch means cannot see (demo RBM, 30 levels: RMS z 1.44 without it)
        double[] friel = all.tiFriel(logZ0);
        estimates.add(LevelEstimate.of(Method.TI_FRIEL, friel, read(group, s -> s.tiFriel(logZ0)))
                .withSystematic(Math.abs(friel[k - 1] - ti[k - 1])));
        estimates.add(LevelEstimate.of(Method.TI_RB, all.tiRb(logZ0), read(group, s -> s.tiRb(logZ0))));
        List<MbarSamples> kept = kept(parts);
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
        double bound = parts.stream().mapToDouble(StageResult::visitedBound).filter(v -> !Double.isNaN(v)).max()
                .orElse(Double.NaN);
        long transitions = settings.iterationsRun(rounds) * m * last.transitionsPerStep();
        double seconds = secondsBefore + (System.nanoTime() - startedNanos) * 1e-9;
        listener.progress(total, total, rts[k - 1], Double.NaN);
        return new TemperedResult(settings.headline(), last.backend(), last.description(), logZ0, estimates, betas,
                logPrior, all.occupancy(), all.visits(), initialLogZ, rounds, converged, deviation, m, group.size(),
                DeltaMethod.of(group),
                stored, mbarResidual, transitions, settings.seed(), seconds, bytes,
                Double.isNaN(bound) ? OptionalDouble.empty() : OptionalDouble.of(bound));
    }

    /** The kept MBAR samples by chain group: iteration by iteration, the parts' chains in chain order. */
    private List<MbarSamples> kept(List<StageResult> parts) {
        if (settings.mbarSamples() == 0) {
            return List.of();
        }
        List<MbarSamples> kept = MbarSamples.groups(k, groups);
        int iterations = parts.get(0).keptLogF().size();
        for (int i = 0; i < iterations; i++) {
            for (StageResult p : parts) {
                MbarSamples.addByChain(kept, p.keptLogF().get(i), p.keptLevels().get(i));
            }
        }
        return kept;
    }

    private static double[] concat(List<StageResult> parts, Function<StageResult, double[]> field) {
        int length = 0;
        for (StageResult p : parts) {
            length += field.apply(p).length;
        }
        double[] out = new double[length];
        int at = 0;
        for (StageResult p : parts) {
            double[] a = field.apply(p);
            System.arraycopy(a, 0, out, at, a.length);
            at += a.length;
        }
        return out;
    }

    private static <T> List<double[]> read(List<T> groups, Function<T, double[]> estimator) {
        List<double[]> curves = new ArrayList<>(groups.size());
        for (T b : groups) {
            curves.add(estimator.apply(b));
        }
        return curves;
    }
}
