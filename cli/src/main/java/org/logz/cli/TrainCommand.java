package org.logz.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.io.AtomicFiles;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.train.CdTrainer;

import com.fasterxml.jackson.annotation.JsonInclude;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz train}: fits an RBM by CD-k and writes it, with the data's base rate as a0. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train a binary RBM by contrastive divergence (host, plain Java; for small and medium models).")
final class TrainCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--data", required = true, paramLabel = "NAME|FILE", description = "mnist, digits, or an .npz with X (examples × units, 0/1).")
    String data;

    @Option(names = "--hidden", required = true, paramLabel = "H", description = "Hidden units.")
    int hidden;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Output .npz (W, a, b and a0 = the data's base rate).")
    Path out;

    @Option(names = "--epochs", defaultValue = "20", description = "Passes over the data. Default: ${DEFAULT-VALUE}.")
    int epochs;

    @Option(names = "--cd-steps", defaultValue = "1", description = "k of CD-k. Default: ${DEFAULT-VALUE}.")
    int cdSteps;

    @Option(names = "--batch-size", defaultValue = "100", description = "Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--learning-rate", defaultValue = "0.05", description = "Default: ${DEFAULT-VALUE}.")
    double learningRate;

    @Option(names = "--momentum", defaultValue = "0.5", description = "Default: ${DEFAULT-VALUE}.")
    double momentum;

    @Option(names = "--weight-decay", defaultValue = "1e-4", description = "Default: ${DEFAULT-VALUE}.")
    double weightDecay;

    @Option(names = "--examples", paramLabel = "N", description = "Use only the first N examples.")
    Integer examples;

    @Option(names = "--seed", defaultValue = "1", description = "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public void run() {
        OptionChecks.atLeast("--hidden", hidden, 1);
        OptionChecks.atLeast("--epochs", epochs, 1);
        OptionChecks.atLeast("--cd-steps", cdSteps, 1);
        OptionChecks.atLeast("--batch-size", batchSize, 1);
        Path dataFile = OptionChecks.existingFile(data);
        AtomicFiles.requireDistinct(List.of(new AtomicFiles.Named("--out", out)),
                List.of(new AtomicFiles.Named("--data", dataFile)));
        AtomicFiles.checkWritable(out);
        BinaryDataset set = Datasets.load(data);
        if (examples != null) {
            if (examples < 1) {
                throw new UserException("--examples must be positive, got " + examples);
            }
            set = set.head(examples);
        }
        CdTrainer.Settings settings = new CdTrainer.Settings(hidden, epochs, cdSteps, batchSize, learningRate, momentum,
                weightDecay, seed);
        long started = System.nanoTime();
        Rbm rbm;
        try (Progress progress = Progress.onTerminal("train")) {
            rbm = CdTrainer.train(set, settings, progress);
        }
        RbmFiles.write(out, rbm, Optional.of(set.baseRate()));
        Double exactLogZ = RbmEnumeration.canEnumerate(rbm) && Math.min(rbm.visible(), rbm.hidden()) <= 24
                ? RbmEnumeration.logZ(rbm) : null;
        Json.print(spec.commandLine().getOut(), new Report(out.toString(), set.toString(), rbm.visible(), rbm.hidden(), epochs,
                cdSteps, seed, (System.nanoTime() - started) * 1e-9, exactLogZ));
    }

    /** The JSON of {@code logz train}; {@code exactLogZ} only when the trained RBM is small enough to enumerate. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Report(String out, String data, int visible, int hidden, int epochs, int cdSteps, long seed, double seconds,
                  Double exactLogZ) {
    }
}
