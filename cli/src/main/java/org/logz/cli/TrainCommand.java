package org.logz.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.cli.plot.TracePlot;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.Warning;
import org.logz.io.AtomicFiles;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.train.RbmTrainer;
import org.logz.train.RtsTracker;
import org.logz.train.TrainingMethod;
import org.logz.train.TrainingRun;
import org.logz.train.TrainingRun.Tracking;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code logz train}: fits an RBM by CD-k or PCD on a backend and writes it, with the data's base rate as a0; with
 * {@code --track}, log Z and the train and validation log-likelihood after every epoch (a table, or {@code --json}).
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train a binary RBM by contrastive divergence or persistent CD, optionally tracking log Z and the "
                + "log-likelihood as it trains (RTS on persistent tempered chains, Carlson et al. 2016 §4.4, or AIS).")
final class TrainCommand implements Callable<Integer> {
    /** The options only RTS tracking reads. */
    private static final List<String> RTS_OPTIONS = List.of("--track-chains", "--track-levels", "--track-sweeps",
            "--track-every", "--alpha", "--measure-sweeps");

    @Spec
    CommandSpec spec;

    @Option(names = "--data", required = true, paramLabel = "NAME|FILE",
            description = "mnist, digits, or an .npz with X (examples × units, 0/1).")
    String data;

    @Option(names = "--hidden", paramLabel = "H", description = "Hidden units (default with --init: the file's).")
    Integer hidden;

    @Option(names = "--init", paramLabel = "FILE",
            description = "Start from this RBM's W, a and b (an .npz as --out writes) instead of small random weights: "
                    + "to continue training, or to track PCD after CD pretraining (RTS §4.4).")
    Path init;

    @Option(names = "--out", required = true, paramLabel = "FILE",
            description = "Output .npz (W, a, b and a0 = the training data's base rate).")
    Path out;

    @Option(names = "--method", paramLabel = "M", defaultValue = "cd:1",
            description = "cd:K (K Gibbs sweeps from each example) or pcd[:CHAINS] (persistent chains, one sweep per "
                    + "update; CHAINS defaults to --batch-size). Default: ${DEFAULT-VALUE}.")
    String method;

    @Option(names = "--epochs", defaultValue = "20", description = "Passes over the data. Default: ${DEFAULT-VALUE}.")
    int epochs;

    @Option(names = "--batch-size", defaultValue = "100",
            description = "Examples per update. Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--learning-rate", defaultValue = "0.05", description = "Default: ${DEFAULT-VALUE}.")
    double learningRate;

    @Option(names = "--momentum", defaultValue = "0.5", description = "Default: ${DEFAULT-VALUE}.")
    double momentum;

    @Option(names = "--weight-decay", defaultValue = "1e-4", description = "Default: ${DEFAULT-VALUE}.")
    double weightDecay;

    @Option(names = "--examples", paramLabel = "N", description = "Use only the first N examples.")
    Integer examples;

    @Option(names = "--validation", paramLabel = "N", defaultValue = "0",
            description = "Hold out the last N examples (of those used) as validation data. Default: ${DEFAULT-VALUE}.")
    int validation;

    @Option(names = "--track", paramLabel = "T", defaultValue = "none",
            description = "log Z while training: rts (persistent tempered chains), ais (AIS at every --ais-every epoch) "
                    + "or none. Default: ${DEFAULT-VALUE}.")
    String track;

    @Option(names = "--track-chains", paramLabel = "C", defaultValue = "200",
            description = "rts: tempered chains. Default: ${DEFAULT-VALUE}.")
    int trackChains;

    @Option(names = "--track-levels", paramLabel = "K", defaultValue = "100",
            description = "rts: inverse temperatures, linear from 0 to 1. Default: ${DEFAULT-VALUE}.")
    int trackLevels;

    @Option(names = "--track-sweeps", paramLabel = "S", defaultValue = "25",
            description = "rts: iterations after each tracked update (the paper's 25). Default: ${DEFAULT-VALUE}.")
    int trackSweeps;

    @Option(names = "--track-every", paramLabel = "U", defaultValue = "1",
            description = "rts: updates between tracking steps. Default: ${DEFAULT-VALUE}.")
    int trackEvery;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.2",
            description = "rts: the partial update's exponent, log Ẑ ← (1-α) log Ẑ + α·(RTS estimate). "
                    + "Default: ${DEFAULT-VALUE} (the paper's).")
    double alpha;

    @Option(names = "--measure-sweeps", paramLabel = "S", defaultValue = "50",
            description = "rts: iterations behind each epoch's log Z and its error. Default: ${DEFAULT-VALUE}.")
    int measureSweeps;

    @Option(names = "--ais-every", paramLabel = "E",
            description = "AIS from scratch every E epochs and after the last (0: never). "
                    + "Default: 5 with --track rts or ais.")
    Integer aisEvery;

    @Option(names = "--ais-chains", paramLabel = "C", defaultValue = "100",
            description = "AIS chains. Default: ${DEFAULT-VALUE}.")
    int aisChains;

    @Option(names = "--ais-steps", paramLabel = "N", defaultValue = "1000",
            description = "AIS steps (linear schedule). Default: ${DEFAULT-VALUE}.")
    int aisSteps;

    @Option(names = "--evaluate", paramLabel = "N", defaultValue = "1000",
            description = "Training examples (the first N) behind the train log-likelihood. Default: ${DEFAULT-VALUE}.")
    int evaluate;

    @Option(names = "--seed", defaultValue = "1", description = "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Plot the train and validation log-likelihood against the epoch (with --track).")
    Path plot;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    WarningReport warningReport;

    @Override
    public Integer call() {
        Optional<Rbm> initial = Optional.empty();
        if (init != null) {
            if (!Files.isRegularFile(init)) {
                throw new UserException("--init " + init + ": no such file");
            }
            initial = Optional.of(RbmFiles.read(init).rbm());
            hidden = hidden == null ? initial.get().hidden() : hidden;
        }
        if (hidden == null) {
            throw new UserException("give --hidden H (or --init FILE, whose hidden units it takes)");
        }
        OptionChecks.atLeast("--hidden", hidden, 1);
        OptionChecks.atLeast("--epochs", epochs, 1);
        OptionChecks.atLeast("--batch-size", batchSize, 1);
        OptionChecks.atLeast("--validation", validation, 0);
        OptionChecks.atLeast("--evaluate", evaluate, 1);
        Tracking tracking = Tracking.parse(track);
        if (tracking == Tracking.NONE && plot != null) {
            throw new UserException("--plot draws the log-likelihood, which needs --track rts or ais");
        }
        if (tracking == Tracking.NONE && aisEvery != null && aisEvery > 0) {
            throw new UserException("--ais-every needs --track rts (AIS beside the tracking) or --track ais");
        }
        for (String option : RTS_OPTIONS) {
            if (tracking != Tracking.RTS && spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new UserException(option + " sets the RTS tracking; it needs --track rts");
            }
        }
        Path dataFile = OptionChecks.existingFile(data);
        List<AtomicFiles.Named> outputs = new ArrayList<>(List.of(new AtomicFiles.Named("--out", out)));
        if (plot != null) {
            outputs.add(new AtomicFiles.Named("--plot", plot));
        }
        List<AtomicFiles.Named> inputs = new ArrayList<>(List.of(new AtomicFiles.Named("--data", dataFile)));
        if (init != null) {
            inputs.add(new AtomicFiles.Named("--init", init));
        }
        AtomicFiles.requireDistinct(outputs, inputs);
        outputs.forEach(o -> AtomicFiles.checkWritable(o.path()));
        BinaryDataset set = Datasets.load(data);
        if (examples != null) {
            OptionChecks.atLeast("--examples", examples, 1);
            set = set.head(Math.min(examples, set.size()));
        }
        if (validation >= set.size()) {
            throw new UserException("--validation " + validation + " leaves no training examples of " + set.size());
        }
        BinaryDataset train = set.head(set.size() - validation);
        Optional<BinaryDataset> held = validation == 0 ? Optional.empty()
                : Optional.of(set.range(set.size() - validation, validation));
        RbmTrainer.Settings training = new RbmTrainer.Settings(hidden, epochs, TrainingMethod.parse(method, batchSize),
                batchSize, learningRate, momentum, weightDecay, seed);
        int checks = aisEvery != null ? aisEvery : tracking == Tracking.NONE ? 0 : 5;
        RtsTracker.Settings rts = tracking != Tracking.RTS ? null : new RtsTracker.Settings(trackChains, trackLevels,
                trackSweeps, measureSweeps, alpha, RtsTracker.Settings.groups(trackChains), 50, 4,
                TrainingRun.Settings.key(seed, 1));
        TrainingRun.Settings settings = new TrainingRun.Settings(training, tracking, rts, trackEvery,
                new TrainingRun.Check(checks, aisChains, aisSteps), evaluate);

        PrintWriter stdout = spec.commandLine().getOut();
        Table table = new Table(stdout, tracking != Tracking.NONE, validation > 0);
        TrainingRun.Result result;
        try (ParticleBackend backend = backendOptions.open(); Progress progress = Progress.onTerminal("train")) {
            result = TrainingRun.run(train, held, initial, settings, backend, new TrainingRun.Listener() {
                @Override
                public void updated(long update, long total, double logZ) {
                    progress.progress(update, total, logZ, Double.NaN);
                }

                @Override
                public void epochDone(TrainingRun.Epoch row) {
                    if (!json) {
                        progress.close();
                        if (row.epoch() == 1) {
                            table.header();
                        }
                        table.row(row);
                    }
                }
            });
        }
        RbmFiles.write(out, result.model(), Optional.of(result.baseRate()));
        if (plot != null) {
            TracePlot.write(plot, result);
        }
        double lastExact = result.epochs().get(result.epochs().size() - 1).exactLogZ();
        Double exactLogZ = !Double.isNaN(lastExact) ? Double.valueOf(lastExact)
                : Math.min(result.model().visible(), result.model().hidden()) <= 24
                ? Double.valueOf(RbmEnumeration.logZ(result.model())) : null;
        if (json) {
            Json.print(stdout, new Report(out.toString(), set.toString(), result.backend(), hidden,
                    result.model().visible(), training.method().toString(), seed, track, train.size(), validation,
                    exactLogZ, result.epochs(), result.cost(), result.warnings()));
        } else {
            table.footer(out, result, exactLogZ);
        }
        return warningReport.finish(spec.commandLine().getErr(), result.warnings());
    }

    /** The text report: one row per epoch as it ends, then the file written and the cost of tracking. */
    private record Table(PrintWriter out, boolean tracked, boolean validated) {
        void header() {
            out.println(tracked
                    ? "epoch  log Z                 train LL    valid LL    AIS log Z             exact       seconds"
                    : "epoch  seconds");
            out.flush();
        }

        void row(TrainingRun.Epoch r) {
            if (!tracked) {
                out.printf(Locale.ROOT, "%5d  %7.1f%n", r.epoch(), r.seconds());
            } else {
                out.printf(Locale.ROOT, "%5d  %-20s  %-10s  %-10s  %-20s  %-10s  %7.1f%n", r.epoch(),
                        withError(r.logZ(), r.stdErr()), number(r.trainLogLikelihood(), "%.3f"),
                        validated ? number(r.validationLogLikelihood(), "%.3f") : "",
                        withError(r.aisLogZ(), r.aisStdErr()), number(r.exactLogZ(), "%.4f"), r.seconds());
            }
            out.flush();
        }

        void footer(Path file, TrainingRun.Result result, Double exactLogZ) {
            out.printf(Locale.ROOT, "wrote %s: RBM %d×%d%s%n", file, result.model().visible(), result.model().hidden(),
                    exactLogZ == null ? "" : String.format(Locale.ROOT, ", exact log Z %.4f", exactLogZ));
            TrainingRun.Cost c = result.cost();
            if (c.trackingSweeps() > 0) {
                out.printf(Locale.ROOT, "tracking: %d chain sweeps, %.2f× the training's %d; %.1f s beside %.1f s of "
                        + "training%n", c.trackingSweeps(), c.trackingSweepRatio(), c.trainingSweeps(),
                        c.trackingSeconds(), c.trainingSeconds());
            }
            if (c.checkSweeps() > 0) {
                out.printf(Locale.ROOT, "AIS checks and log-likelihoods: %.1f s, %d chain sweeps%n", c.checkSeconds(),
                        c.checkSweeps());
            }
            out.flush();
        }

        private static String withError(double value, double error) {
            return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f ± %.4f", value, error);
        }

        private static String number(double value, String format) {
            return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
        }
    }

    /** The JSON of {@code logz train}; {@code exactLogZ} null where the trained RBM is too large to enumerate. */
    record Report(String out, String data, String backend, int hidden, int visible, String method, long seed,
                  String track, int trainingExamples, int validationExamples, Double exactLogZ,
                  List<TrainingRun.Epoch> epochs, TrainingRun.Cost cost, List<Warning> warnings) {
    }
}
