package org.logz.examples;

import java.util.Locale;
import java.util.Optional;

import org.logz.backend.Backends;
import org.logz.backend.ParticleBackend;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.train.RbmTrainer;
import org.logz.train.RtsTracker;
import org.logz.train.TrainingMethod;
import org.logz.train.TrainingRun;

/**
 * log Z and the log-likelihood of an RBM while PCD trains it on the shipped 8×8 digits ({@link TrainingRun}): the
 * persistent tempered chains of RTS follow log Z from update to update (Carlson et al. 2016, §4.4), AIS from scratch
 * checks it every few epochs, and the table sets both beside the exact value (the 16 hidden units enumerate) with the
 * mean log-likelihood of the training digits and of the held-out ones.
 *
 * <p>{@code java ... org.logz.examples.TrackTraining [epochs] [every] [backend]} (defaults 12, 3, cpu).
 */
public final class TrackTraining {
    /** Digits the model trains on; the rest are held out. */
    static final int TRAINING = 1500;
    static final int HIDDEN = 16;

    private TrackTraining() {
    }

    public static void main(String[] args) {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String backend = args.length > 2 ? args[2] : "cpu";
        TrainingRun.Result result = track(epochs, every, backend, 2);
        System.out.println("epoch   log Z (RTS)          AIS                  exact     train LL   test LL");
        for (TrainingRun.Epoch r : result.epochs()) {
            System.out.printf(Locale.ROOT, "%5d   %8.4f ± %.4f   %-19s  %8.4f   %8.3f   %8.3f%n", r.epoch(), r.logZ(),
                    r.stdErr(), Double.isNaN(r.aisLogZ()) ? "" : String.format(Locale.ROOT, "%8.4f ± %.4f",
                            r.aisLogZ(), r.aisStdErr()), r.exactLogZ(), r.trainLogLikelihood(),
                    r.validationLogLikelihood());
        }
        result.warnings().forEach(w -> System.out.println("warning: " + w.message()));
    }

    /** Trains for {@code epochs} epochs by PCD on {@code backend}, tracking log Z, with an AIS check every {@code every}. */
    public static TrainingRun.Result track(int epochs, int every, String backend, int threads) {
        BinaryDataset digits = Datasets.load("digits");
        BinaryDataset train = digits.head(TRAINING);
        BinaryDataset test = digits.range(TRAINING, digits.size() - TRAINING);
        RbmTrainer.Settings training = new RbmTrainer.Settings(HIDDEN, epochs, TrainingMethod.parse("pcd", 100), 100,
                0.05, 0.5, 1e-4, 1);
        TrainingRun.Settings settings = new TrainingRun.Settings(training, TrainingRun.Tracking.RTS,
                RtsTracker.Settings.of(200, 50, 25, TrainingRun.Settings.key(1, 1)), 1,
                new TrainingRun.Check(every, 100, 1000), TRAINING);
        try (ParticleBackend open = Backends.create(backend, threads)) {
            return TrainingRun.run(train, Optional.of(test), settings, open, TrainingRun.Listener.NONE);
        }
    }
}
