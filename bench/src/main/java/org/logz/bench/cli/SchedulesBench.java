package org.logz.bench.cli;

import java.util.List;

import org.logz.backend.ParticleBackend;
import org.logz.comparison.ScheduleComparison;
import org.logz.cli.BackendOptions;
import org.logz.cli.ReferenceOption;
import org.logz.cli.Json;
import org.logz.cli.OptionChecks;
import org.logz.cli.Progress;
import org.logz.io.AtomicFiles;
import org.logz.path.TemperedPath;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bench schedules}. */
@Command(name = "schedules", mixinStandardHelpOptions = true,
        description = "AIS on linear, geometric, sigmoid, VAROPT and decelerated VAROPT schedules and the adaptive SMC "
                + "sampler, over many seeds on a model with exact log Z or a reference (Kiwaki's Table 1): RMSE, bias, spread and "
                + "ESS, and the RMSE scaled to equal total sweeps.")
final class SchedulesBench implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "MODEL",
            description = "An RBM .npz small enough to enumerate, ising:L=N, gauss-toy or gpc:FILE with an exact log Z; "
                    + "any model with --reference.")
    String model;

    @Option(names = "--schedules", split = ";", defaultValue = "linear;geometric;sigmoid;varopt;"
            + "varopt:max-step=0.009;smc:0.9;smc:0.99;smc:0.999", paramLabel = "S;S;...",
            description = "AIS schedules (linear, geometric[:βmin], sigmoid[:δ], salakhutdinov:K, "
                    + "varopt[:pilot=K0,chains=C,max-step=d], gms13[:knots=N,chains=C,burn-in=B,sweeps=S]) "
                    + "and smc:ρ entries, separated by semicolons. Default: ${DEFAULT-VALUE}.")
    List<String> schedules;

    @Option(names = "--chains", defaultValue = "100", description = "AIS chains and SMC particles. Default: ${DEFAULT-VALUE}.")
    int chains;

    @Option(names = "--steps", defaultValue = "1000", description = "AIS steps K. Default: ${DEFAULT-VALUE}.")
    int steps;

    @Option(names = "--seeds", defaultValue = "20", description = "Seeds per schedule. Default: ${DEFAULT-VALUE}.")
    int seeds;

    @Mixin
    TableOptions table;

    @Mixin
    ReferenceOption referenceOption;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public void run() {
        table.checkWritable(new AtomicFiles.Named("--model", OptionChecks.existingFile(model)));
        OptionChecks.atLeast("--chains", chains, 2);
        OptionChecks.atLeast("--steps", steps, 1);
        OptionChecks.atLeast("--seeds", seeds, 2);
        Problem problem = Problem.parse(model);
        Reference against = referenceOption.require(problem, "bench schedules");
        List<ScheduleComparison.Row> rows;
        try (ParticleBackend backend = backendOptions.open();
             TemperedPath path = problem.annealingPath(backend, new Problem.PathOptions("auto", null, 1, 1));
             Progress progress = Progress.onTerminal("bench")) {
            rows = ScheduleComparison.run(path, against.logZ(), schedules, chains, steps, seeds, table.seed, progress);
        }
        String markdown = ScheduleComparison.markdown(model, against, rows);
        table.write(markdown);
        Json.print(spec.commandLine().getOut(), new Report(model, against, chains, steps, seeds, rows, markdown));
    }

    /** The JSON of {@code bench schedules}: one row per schedule. */
    record Report(String model, Reference against, int chains, int steps, int seeds, List<ScheduleComparison.Row> rows,
                  String table) {
    }
}
