package org.logz.train;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Warning;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.schedule.Schedule;

/**
 * Training with a live log-likelihood: {@link RbmTrainer} on a backend, log Z followed as the parameters change, and
 * after every epoch the mean log-likelihood of training and validation examples, {@code mean log f(x) - log Z}. log Z
 * comes from the persistent tempered chains of {@link RtsTracker} (tracking {@link Tracking#RTS}), from an AIS run
 * from scratch every few epochs ({@link Tracking#AIS}), or not at all; AIS checks may run beside the tracking, and
 * models small enough to enumerate (at most {@value #EXACT_UNITS} units on one side) get their exact log Z too.
 */
public final class TrainingRun {
    /**
     * Tracked models with at most this many units on their smaller side get their exact log Z after every epoch (2^20
     * states of 784 units take about 9 s here).
     */
    public static final int EXACT_UNITS = 20;

    /** Where the epochs' log Z comes from. */
    public enum Tracking {
        /** Persistent tempered chains and the partial RTS update (Carlson et al. 2016, §4.4). */
        RTS,
        /** AIS from scratch at the check epochs only. */
        AIS,
        /** None: no log Z, no log-likelihood. */
        NONE;

        /** {@code rts}, {@code ais} or {@code none}. */
        public static Tracking parse(String name) {
            for (Tracking t : values()) {
                if (t.name().toLowerCase(Locale.ROOT).equals(name)) {
                    return t;
                }
            }
            throw new UserException("unknown tracking '" + name + "'; use rts, ais or none");
        }
    }

    /**
     * @param every  epochs between AIS runs (the last epoch always has one where {@code every > 0}); 0: none
     * @param chains AIS chains
     * @param steps  AIS steps (a linear schedule)
     */
    public record Check(int every, int chains, int steps) {
        public Check {
            if (every < 0) {
                throw new UserException("AIS checks every " + every + " epochs: use 0 (none) or a positive number");
            }
            if (every > 0 && (chains < 2 || steps < 1)) {
                throw new UserException("an AIS check needs at least 2 chains and 1 step, got " + chains + " chains and "
                        + steps + " steps");
            }
            if (every > 0) {
                Schedule.requireSteps(steps);
            }
        }

        boolean due(int epoch, int epochs) {
            return every > 0 && (epoch % every == 0 || epoch == epochs);
        }
    }

    /**
     * @param training  the trainer's settings
     * @param tracking  where log Z comes from
     * @param rts       the tracking chains (read for {@link Tracking#RTS})
     * @param every     updates between two tracking steps
     * @param check     AIS runs (for {@link Tracking#AIS}, those are the log Z)
     * @param evaluated training examples (the first ones) whose mean log-likelihood each epoch reports
     */
    public record Settings(RbmTrainer.Settings training, Tracking tracking, RtsTracker.Settings rts, int every,
                           Check check, int evaluated) {
        public Settings {
            if (training == null || tracking == null || check == null || tracking == Tracking.RTS && rts == null) {
                throw new UserException("the training, tracking and check settings are all needed");
            }
            if (every < 1) {
                throw new UserException("tracking every " + every + " updates: use a positive number");
            }
            if (evaluated < 1) {
                throw new UserException("the log-likelihood needs at least one training example, got " + evaluated);
            }
            if (tracking == Tracking.AIS && check.every() == 0) {
                throw new UserException("tracking by AIS needs AIS runs: give them every E > 0 epochs");
            }
        }

        /** The key of a run's sampling beside the trainer's: 1 the tracking chains, 2 + e the AIS check of epoch e. */
        public static long key(long seed, int purpose) {
            return Philox.derive(seed, StreamTag.TRAIN_KEYS, purpose);
        }
    }

    /**
     * One row of the table, after {@code epoch} epochs and {@code updates} parameter updates. NaN where a value was not
     * measured:
     * log Z and the log-likelihoods without tracking, the AIS columns between checks, the exact log Z of large models,
     * the validation log-likelihood without validation examples.
     *
     * @param logZ         the tracked log Z (RTS), or AIS's (tracking by AIS)
     * @param deviation    RTS: the occupancies' largest distance from the prior in the measurement's last round
     *                     ({@link RtsTracker.Estimate}); NaN otherwise
     * @param rounds       RTS: the measurement's rounds; 0 otherwise
     * @param seconds      wall time since training started
     */
    public record Epoch(int epoch, long updates, double logZ, double stdErr, double trainLogLikelihood,
                        double validationLogLikelihood, double aisLogZ, double aisStdErr, double exactLogZ,
                        double deviation, int rounds, double seconds) {
    }

    /**
     * What the run cost: wall seconds of the training itself (sweeps and gradients), of the tracking (its start, updates
     * and measurements), and of the AIS checks, the exact values and the log-likelihoods; chain sweeps of the training's negative phase, of the tracking chains and of the
     * AIS checks.
     */
    public record Cost(double trainingSeconds, double trackingSeconds, double checkSeconds, long trainingSweeps,
                       long trackingSweeps, long checkSweeps) {
        /** Tracking's chain sweeps per sweep of the training's negative phase. */
        public double trackingSweepRatio() {
            return (double) trackingSweeps / trainingSweeps;
        }
    }

    /** The trained model, the data's base rate (its a0), the rows, the warnings and the cost, on {@code backend}. */
    public record Result(Rbm model, BaseRate baseRate, List<Epoch> epochs, List<Warning> warnings, Cost cost,
                         String backend) {
        public Result {
            epochs = List.copyOf(epochs);
            warnings = List.copyOf(warnings);
        }
    }

    /** Told of the run as it goes, on its thread. */
    public interface Listener {
        Listener NONE = new Listener() { };

        /** After update {@code update} of {@code total}; {@code logZ} the tracked value (NaN without RTS tracking). */
        default void updated(long update, long total, double logZ) {
        }

        /** After each epoch, with its row. */
        default void epochDone(Epoch row) {
        }
    }

    /** Standard errors past which two estimates, or an estimate and the exact value, disagree. */
    static final double ERRORS = 4;

    private TrainingRun() {
    }

    /**
     * Trains on {@code train} and follows the log-likelihood of its first {@code evaluated} examples and of every
     * example of {@code validation}, where there is one.
     */
    public static Result run(BinaryDataset train, Optional<BinaryDataset> validation, Settings s,
                             ParticleBackend backend, Listener listener) {
        return run(train, validation, Optional.empty(), s, backend, listener);
    }

    /** {@link #run(BinaryDataset, Optional, Settings, ParticleBackend, Listener)} from {@code initial}'s parameters. */
    public static Result run(BinaryDataset train, Optional<BinaryDataset> validation, Optional<Rbm> initial, Settings s,
                             ParticleBackend backend, Listener listener) {
        if (validation.isPresent() && validation.get().dimension() != train.dimension()) {
            throw new UserException("validation examples have " + validation.get().dimension() + " units, training examples "
                    + train.dimension());
        }
        BaseRate baseRate = train.baseRate();
        requireCheckFits(train, initial, s, backend, baseRate);
        BinaryDataset evaluated = train.head(Math.min(s.evaluated(), train.size()));
        long total = (long) s.training().epochs() * s.training().updatesPerEpoch(train.size());
        long started = System.nanoTime();
        List<Epoch> rows = new ArrayList<>();
        List<Warning> warnings = new ArrayList<>();
        long[] nanos = new long[2];
        long[] checkSweeps = new long[1];
        RtsTracker[] tracker = new RtsTracker[1];
        try {
            RbmTrainer.Observer observer = new RbmTrainer.Observer() {
                @Override
                public void updated(long update, Rbm model) {
                    double logZ = Double.NaN;
                    if (s.tracking() == Tracking.RTS) {
                        long t0 = System.nanoTime();
                        if (tracker[0] == null) {
                            tracker[0] = new RtsTracker(backend, model, baseRate, s.rts());
                        } else if (update % s.every() == 0) {
                            tracker[0].update(model);
                        }
                        logZ = tracker[0].tracked();
                        nanos[0] += System.nanoTime() - t0;
                    }
                    listener.updated(update, total, logZ);
                }

                @Override
                public void epochDone(int epoch, Rbm model) {
                    long t0 = System.nanoTime();
                    Optional<RtsTracker.Estimate> measured = Optional.ofNullable(tracker[0]).map(t -> t.measure(model));
                    long t1 = System.nanoTime();
                    nanos[0] += t1 - t0;
                    Epoch row = epoch(epoch, model, s, backend, baseRate, evaluated, validation, measured,
                            (long) epoch * s.training().updatesPerEpoch(train.size()),
                            (System.nanoTime() - started) * 1e-9, warnings, checkSweeps);
                    nanos[1] += System.nanoTime() - t1;
                    rows.add(row);
                    listener.epochDone(row);
                }
            };
            Rbm model = RbmTrainer.train(train, s.training(), initial, backend, observer);
            if (s.tracking() == Tracking.RTS) {
                unsettled(rows, s.rts().levels()).ifPresent(warnings::add);
            }
            if (s.tracking() != Tracking.NONE && Math.min(model.visible(), model.hidden()) > EXACT_UNITS) {
                warnings.add(new Warning("unverified", "log Z of an RBM too large to enumerate: the tracking's and "
                        + "the AIS checks' errors cover the noise of their own chains, not mass none of them reached "
                        + "(on the CD-25 MNIST RBM single runs of one method landed 0.25-0.6 nats low with errors of "
                        + "0.04-0.1); `logz estimate --tolerance` on a saved model gives a number to rely on"));
            }
            long trainingNanos = System.nanoTime() - started - nanos[0] - nanos[1];
            int batch = Math.min(s.training().batchSize(), train.size());
            long trainingSweeps = total * s.training().method().negativeSamples(batch)
                    * s.training().method().sweepsPerUpdate();
            Cost cost = new Cost(trainingNanos * 1e-9, nanos[0] * 1e-9, nanos[1] * 1e-9, trainingSweeps,
                    tracker[0] == null ? 0 : tracker[0].chainSweeps(), checkSweeps[0]);
            return new Result(model, baseRate, rows, warnings, cost, backend.name());
        } finally {
            if (tracker[0] != null) {
                tracker[0].close();
            }
        }
    }

    /**
     * The row of epoch {@code epoch}: log Z, the AIS check when due, the exact value when small, the log-likelihoods;
     * and the warnings of what they show: an estimate below a lower bound of log Z (a data example's, a tracking chain's
     * or an AIS chain's visited state), one that misses the exact value by more than its error, or an AIS check that
     * disagrees with the tracking. A check that fails its own bound is a warning, not the end of the training.
     */
    private static Epoch epoch(int epoch, Rbm model, Settings s, ParticleBackend backend, BaseRate baseRate,
                               BinaryDataset evaluated, Optional<BinaryDataset> validation,
                               Optional<RtsTracker.Estimate> measured, long updates, double seconds,
                               List<Warning> warnings, long[] checkSweeps) {
        double logZ = measured.map(RtsTracker.Estimate::logZ).orElse(Double.NaN);
        double stdErr = measured.map(RtsTracker.Estimate::stdErr).orElse(Double.NaN);
        double deviation = measured.map(RtsTracker.Estimate::deviation).orElse(Double.NaN);
        int rounds = measured.map(RtsTracker.Estimate::rounds).orElse(0);
        double bound = measured.map(RtsTracker.Estimate::visitedBound).orElse(Double.NEGATIVE_INFINITY);
        double aisLogZ = Double.NaN;
        double aisStdErr = Double.NaN;
        double exact = s.tracking() != Tracking.NONE && Math.min(model.visible(), model.hidden()) <= EXACT_UNITS
                ? RbmEnumeration.logZ(model) : Double.NaN;
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(model, baseRate))) {
            if (s.check().due(epoch, s.training().epochs())) {
                Check c = s.check();
                AnnealingResult ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(c.chains(),
                        Schedule.linear(c.steps()), Settings.key(s.training().seed(), 2 + epoch)))
                        .forwardPart(path, 0, c.chains(), ProgressListener.NONE);
                checkSweeps[0] += (long) c.chains() * c.steps();
                bound = Math.max(bound, ais.visitedBound().orElse(Double.NEGATIVE_INFINITY));
                String what = "epoch " + epoch + ", AIS check: ";
                try {
                    ais.requirePossible();
                    aisLogZ = ais.logZ();
                    aisStdErr = ais.stdErr();
                    for (Warning w : ais.warnings()) {
                        warnings.add(new Warning(w.code(), what + w.message()));
                    }
                } catch (ImpossibleEstimateException e) {
                    warnings.add(new Warning("ais-impossible", what + e.getMessage()));
                }
                if (s.tracking() == Tracking.AIS) {
                    logZ = aisLogZ;
                    stdErr = aisStdErr;
                } else if (measured.isPresent() && !Double.isNaN(aisLogZ)) {
                    disagreement(epoch, logZ, stdErr, aisLogZ, aisStdErr).ifPresent(warnings::add);
                }
                if (s.tracking() != Tracking.AIS) {
                    missesExact(epoch, "AIS check", aisLogZ, aisStdErr, exact).ifPresent(warnings::add);
                }
            }
            double train = Double.NaN;
            double held = Double.NaN;
            if (!Double.isNaN(logZ)) {
                Densities t = densities(path, backend, evaluated);
                Densities v = validation.isEmpty() ? t : densities(path, backend, validation.get());
                train = t.mean() - logZ;
                held = validation.isEmpty() ? Double.NaN : v.mean() - logZ;
                bound = Math.max(bound, Math.max(t.max(), v.max()));
                belowBound(epoch, logZ, stdErr, bound).ifPresent(warnings::add);
                missesExact(epoch, s.tracking() == Tracking.RTS ? "tracked" : "AIS", logZ, stdErr, exact)
                        .ifPresent(warnings::add);
            }
            return new Epoch(epoch, updates, logZ, stdErr, train, held, aisLogZ, aisStdErr, exact, deviation, rounds,
                    seconds);
        }
    }

    /** An estimate more than four of its errors (plus 0.01) from the exact log Z printed beside it. */
    private static Optional<Warning> missesExact(int epoch, String what, double logZ, double stdErr, double exact) {
        double slack = ERRORS * (Double.isFinite(stdErr) ? stdErr : 0) + 0.01;
        if (Double.isNaN(exact) || Double.isNaN(logZ) || Math.abs(logZ - exact) <= slack) {
            return Optional.empty();
        }
        return Optional.of(new Warning("misses-exact", String.format(Locale.ROOT, "epoch %d: the %s log Z %.4f ± %.4f "
                + "is %.4f from the exact %.4f, more than %.0f of its errors: its chains missed mass they never reached "
                + "(or had not settled), and on a model too large to enumerate nothing would show it", epoch, what, logZ,
                stdErr, logZ - exact, exact, ERRORS)));
    }

    /** Refuses, before any training, AIS checks whose chains the backend cannot hold. */
    private static void requireCheckFits(BinaryDataset train, Optional<Rbm> initial, Settings s, ParticleBackend backend,
                                         BaseRate baseRate) {
        Check c = s.check();
        if (c.every() == 0) {
            return;
        }
        int n = train.dimension();
        int h = s.training().hidden();
        Rbm shape = initial.orElseGet(() -> new Rbm(n, h, new float[n * h], baseRate.logOdds(), new float[h]));
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(shape, baseRate))) {
            backend.require(new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(c.chains(),
                    Schedule.linear(c.steps()), 0)).footprint(path), "AIS checks of " + c.chains() + " chains on a "
                    + n + "×" + h + " RBM");
        }
    }

    /** Examples whose log densities the backend computes at once. */
    private static final int CHUNK = 1000;

    /** The mean and the largest {@code log f(x)} of a set of examples. */
    private record Densities(double mean, double max) {
    }

    /** {@code log f_1(x)} over the examples, on the backend, in chunks of {@value #CHUNK}: its mean and its largest. */
    private static Densities densities(TemperedPath path, ParticleBackend backend, BinaryDataset examples) {
        int n = examples.dimension();
        int chunk = Math.min(CHUNK, examples.size());
        double sum = 0;
        double max = Double.NEGATIVE_INFINITY;
        try (TemperedPath.Chains rows = path.chains(chunk); ParticleVector out = backend.vector(chunk)) {
            float[] x = new float[chunk * n];
            for (int from = 0; from < examples.size(); from += chunk) {
                int count = Math.min(chunk, examples.size() - from);
                Arrays.fill(x, 0f);
                for (int e = 0; e < count; e++) {
                    examples.copyRow(from + e, x, e * n);
                }
                rows.load(x);
                rows.logDensity(1.0, out);
                for (double v : backend.download(out, count)) {
                    sum += v;
                    max = Math.max(max, v);
                }
            }
        }
        return new Densities(sum / examples.size(), max);
    }

    /**
     * Every example's {@code log f(x)} is a lower bound of log Z; an estimate more than three errors below the largest
     * underestimates log Z, and the log-likelihoods read from it are too high (a mean above 0 shows it too late).
     */
    private static Optional<Warning> belowBound(int epoch, double logZ, double stdErr, double bound) {
        double slack = 3 * (Double.isFinite(stdErr) ? stdErr : 0);
        if (logZ + slack >= bound) {
            return Optional.empty();
        }
        return Optional.of(new Warning("below-bound", String.format(Locale.ROOT, "epoch %d: log Z %.4f ± %.4f lies "
                + "below log f(x) = %.4f of a data example, a lower bound of log Z: log Z is underestimated and the "
                + "log-likelihoods are too high by at least %.4f", epoch, logZ, stdErr, bound, bound - logZ)));
    }

    private static Optional<Warning> disagreement(int epoch, double logZ, double stdErr, double aisLogZ,
                                                            double aisStdErr) {
        double z = (logZ - aisLogZ) / Math.sqrt(stdErr * stdErr + aisStdErr * aisStdErr);
        if (Math.abs(z) <= ERRORS) {
            return Optional.empty();
        }
        return Optional.of(new Warning("tracking-disagrees", String.format(Locale.ROOT, "epoch %d: the "
                + "tracked log Z %.4f ± %.4f and AIS's %.4f ± %.4f differ by %.1f standard errors: the tracking chains "
                + "had not settled (track with more chains or sweeps) or AIS is too short (--ais-steps)", epoch,
                logZ, stdErr, aisLogZ, aisStdErr, z)));
    }

    /** One warning for the epochs whose measurement ran out of rounds before its occupancies settled. */
    private static Optional<Warning> unsettled(List<Epoch> rows, int levels) {
        double bound = TemperedResult.STOP / levels;
        List<Integer> epochs = rows.stream().filter(r -> !(r.deviation() < bound)).map(Epoch::epoch).toList();
        if (epochs.isEmpty()) {
            return Optional.empty();
        }
        double worst = rows.stream().mapToDouble(Epoch::deviation).max().orElse(Double.NaN);
        return Optional.of(new Warning("tracking-unsettled", String.format(Locale.ROOT, "at epochs %s the tracking "
                + "chains' level occupancies were still up to %.3g from the prior after %d rounds (settled below "
                + "%.3g): they had not caught up with the parameters, and log Z there may be off by more than its "
                + "error; track with more chains or sweeps, or train with a smaller learning rate", epochs, worst,
                RtsTracker.MAX_ROUNDS, bound)));
    }
}
