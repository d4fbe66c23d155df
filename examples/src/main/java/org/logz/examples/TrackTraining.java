package org.logz.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.api.Logz;
import org.logz.api.Result;
import org.logz.backend.Backends;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.train.CdTrainer;

/**
 * log Z and the test log-likelihood of an RBM while CD-1 trains it on the shipped 8×8 digits: after every few epochs
 * the training loop asks logz for log Z (AIS on one backend opened once, so its kernels stay loaded), and the table
 * sets it beside the exact value (the 16 hidden units enumerate) and the average log-likelihood of held-out digits.
 *
 * <p>{@code java ... org.logz.examples.TrackTraining [epochs] [every] [backend]} (defaults 12, 3, cpu).
 */
public final class TrackTraining {
    /** Digits the model trains on; the rest are held out. */
    static final int TRAINING = 1500;
    static final int HIDDEN = 16;

    private TrackTraining() {
    }

    /** One row of the table: after {@code epoch} epochs, the estimate, the exact log Z and the average log-likelihoods. */
    public record Row(int epoch, Rbm model, Result estimate, double exactLogZ, double trainLogLikelihood,
                      double testLogLikelihood) {
    }

    public static void main(String[] args) {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String backend = args.length > 2 ? args[2] : "cpu";
        System.out.println("epoch   log Z (AIS)          exact     train LL   test LL    seconds");
        for (Row r : track(epochs, every, backend, 2)) {
            System.out.printf(Locale.ROOT, "%5d   %8.4f ± %.4f   %8.4f   %8.3f   %8.3f   %6.2f%n", r.epoch(), r.estimate().logZ(),
                    r.estimate().standardError().orElse(Double.NaN), r.exactLogZ(), r.trainLogLikelihood(),
                    r.testLogLikelihood(), r.estimate().seconds());
            r.estimate().warnings().forEach(w -> System.out.println("        warning: " + w.message()));
        }
    }

    /** Trains for {@code epochs} epochs and estimates log Z after every {@code every}-th on {@code backend}. */
    public static List<Row> track(int epochs, int every, String backend, int threads) {
        BinaryDataset digits = Datasets.load("digits");
        BinaryDataset train = digits.head(TRAINING);
        BinaryDataset test = digits.range(TRAINING, digits.size() - TRAINING);
        List<Row> rows = new ArrayList<>();
        try (ParticleBackend open = Backends.create(backend, threads)) {
            CdTrainer.train(train, CdTrainer.Settings.defaults(HIDDEN, epochs, 1), ProgressListener.NONE, (epoch, model) -> {
                if (epoch % every == 0) {
                    Result estimate = Logz.rbm(model).ais().chains(200).steps(1000).seed(epoch).backend(open).run();
                    rows.add(new Row(epoch, model, estimate, RbmEnumeration.logZ(model),
                            meanLogMarginal(model, train) - estimate.logZ(), meanLogMarginal(model, test) - estimate.logZ()));
                }
            });
        }
        return rows;
    }

    /** The average unnormalized log-probability log p*(x) of the examples. */
    static double meanLogMarginal(Rbm model, BinaryDataset data) {
        float[] x = new float[data.dimension()];
        double sum = 0;
        for (int e = 0; e < data.size(); e++) {
            data.copyRow(e, x, 0);
            sum += model.logMarginal(x);
        }
        return sum / data.size();
    }
}
