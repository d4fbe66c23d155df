package org.logz.model.rbm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;

/**
 * An RBM named on the command line: a model file, or the demo model shipped in the jar (a 64×16
 * RBM trained by CD-5 on the binarized 8×8 digits; see {@code tools/models/README.md}).
 */
public record RbmSource(String name, Rbm rbm, Optional<BaseRate> fileBaseRate, boolean demo) {
    public static final String DEMO_RESOURCE = "/org/logz/models/demo-digits-64x16.npz";

    public static RbmSource resolve(Path file) {
        if (file == null) {
            return loadDemo();
        }
        RbmFiles.RbmFile read = RbmFiles.read(file);
        return new RbmSource(file.toString(), read.rbm(), read.baseRate(), false);
    }

    public static RbmSource loadDemo() {
        try (InputStream in = RbmSource.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the demo model is missing from the jar");
            }
            RbmFiles.RbmFile read = RbmFiles.read("demo", in);
            return new RbmSource("demo (64×16 RBM, CD-5 on the 8×8 digits)", read.rbm(), read.baseRate(), true);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the demo model", e);
        }
    }

    /**
     * The base rate of the tempered path. {@code choice}: {@code auto} (the data set when
     * {@code --data} is given, else the model file's {@code a0}, else {@code model}), {@code data},
     * {@code file}, {@code model} ({@link ModelBaseRate}, computed on {@code backend}), {@code uniform}
     * or {@code visible-bias}.
     */
    public BaseRate baseRate(String choice, String data, ParticleBackend backend, long seed) {
        String c = choice == null ? "auto" : choice;
        return switch (c) {
            case "auto" -> data != null ? dataBaseRate(data)
                    : fileBaseRate.orElseGet(() -> ModelBaseRate.of(backend, rbm, seed));
            case "data" -> {
                if (data == null) {
                    throw new UserException("--base-rate data needs --data NAME|FILE");
                }
                yield dataBaseRate(data);
            }
            case "file" -> fileBaseRate.orElseThrow(() -> new UserException(
                    "--base-rate file: " + name + " has no a0 array"));
            case "model" -> ModelBaseRate.of(backend, rbm, seed);
            case "uniform" -> BaseRate.uniform(rbm.visible());
            case "visible-bias" -> BaseRate.visibleBias(rbm);
            default -> throw new UserException("--base-rate must be auto, data, file, model, uniform or "
                    + "visible-bias, got " + choice);
        };
    }

    private BaseRate dataBaseRate(String data) {
        return dataSet(data).baseRate();
    }

    /** A data set whose examples have as many units as the model has visible units. */
    public BinaryDataset dataSet(String data) {
        BinaryDataset set = Datasets.load(data);
        if (set.dimension() != rbm.visible()) {
            throw new UserException("data set " + set + " has " + set.dimension() + " units per example, the model "
                    + rbm.visible() + " visible units");
        }
        return set;
    }
}
