package org.logz.bench.cli;

import java.util.List;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.comparison.GpcComparison;
import org.logz.cli.BackendOptions;
import org.logz.cli.Json;
import org.logz.cli.OptionChecks;
import org.logz.cli.Progress;
import org.logz.cli.ReferenceOption;
import org.logz.io.AtomicFiles;
import org.logz.model.GpClassification;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bench gpc}. */
@Command(name = "gpc", mixinStandardHelpOptions = true,
        description = "The ARM paper's Figure 2 as a table: the evidence of a GP classifier by rm, arm, AIS from the "
                + "prior and AIS from EP's q, log of the mean Ẑ and the sd of log Ẑ over replicates against "
                + "particle-steps and seconds, with EP beside them; against the exact log Z where logz has one (at most "
                + "three cases, or independent cases), or --reference LOGZ[:SE].")
final class GpcBench implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--model", defaultValue = "gpc:mnist35", paramLabel = "gpc:SET|FILE",
            description = "Default: ${DEFAULT-VALUE}.")
    String model;

    @Option(names = "--log-ell", paramLabel = "L", description = "Default: the file's log_ell, else 4.85.")
    Double logEll;

    @Option(names = "--log-sigma", paramLabel = "S", description = "Default: the file's log_sigma, else 5.1.")
    Double logSigma;

    @Option(names = "--runs", split = ",", defaultValue = "rm:100,arm:100,ais-prior:100:1000,ais-ep:100:100,"
            + "ais-ep:100:1000,rm:1000,arm:1000",
            description = "rm:R, arm:R, ais-prior:CHAINS:STEPS[:SCHEDULE] or ais-ep:CHAINS:STEPS[:SCHEDULE] entries "
                    + "(schedules: geometric:1e-9 from the prior, geometric from q, as the paper's). "
                    + "Default: ${DEFAULT-VALUE}.")
    List<String> runs;

    @Option(names = "--replicates", defaultValue = "10", description = "Replicates per entry. Default: ${DEFAULT-VALUE}.")
    int replicates;

    @Mixin
    TableOptions table;

    @Mixin
    ReferenceOption referenceOption;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public void run() {
        table.checkWritable(new AtomicFiles.Named("--model", OptionChecks.existingFile(model.replaceFirst("^gpc:", ""))));
        OptionChecks.atLeast("--replicates", replicates, 2);
        List<GpcComparison.Entry> entries = runs.stream().map(GpcComparison.Entry::parse).toList();
        Problem problem = Problem.parse(model, OptionChecks.optional(logEll), OptionChecks.optional(logSigma));
        GpClassification classifier = problem.classifier().orElseThrow(() -> new UserException(
                "bench gpc needs a GP classification model (gpc:SET|FILE), got " + model));
        Optional<Reference> against = referenceOption.optional(problem);
        GpcComparison.Table result;
        try (ParticleBackend backend = backendOptions.open(); Progress progress = Progress.onTerminal("bench")) {
            result = GpcComparison.run(backend, classifier, entries, replicates, table.seed, progress);
        }
        String markdown = GpcComparison.markdown(result, against);
        table.write(markdown);
        Json.print(spec.commandLine().getOut(), new Report(model, classifier.size(), replicates,
                against.orElse(null), result.epLogZ(), result.correctedEpLogZ(), result.rows(), markdown));
    }

    /**
     * The JSON of {@code bench gpc}: one row per entry, what the rows are measured against (the exact log Z where logz
     * has one, or {@code --reference}; null where neither), EP's log Z and the corrected EP's.
     */
    record Report(String model, int cases, int replicates, Reference against, double epLogZ, double correctedEpLogZ,
                  List<GpcComparison.Row> rows, String table) {
    }
}
