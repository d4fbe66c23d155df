package org.logz.bench.cli;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.comparison.AiselComparison;
import org.logz.cli.BackendOptions;
import org.logz.cli.ReferenceOption;
import org.logz.cli.Json;
import org.logz.cli.OptionChecks;
import org.logz.cli.Progress;
import org.logz.io.AtomicFiles;
import org.logz.model.LatentModel;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bench aisel}. */
@Command(name = "aisel", mixinStandardHelpOptions = true,
        description = "AISEL at several inner N (and the SMC sampler with the exact likelihood where there is one) over "
                + "many seeds on a latent-variable model: evidence, spread, error against the GLMM's quadrature "
                + "evidence, σ² of log p̂, steps, inner draws and time.")
final class AiselBench implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "glmm:SET|FILE or sv:SET|FILE.")
    String model;

    @Option(names = "--likelihoods", split = ";", paramLabel = "L;L;...", description = "exact, or PROPOSAL:N (laplace:N, "
            + "prior:N for the GLMM; bootstrap:N for SV), separated by semicolons. Default: exact;prior:1;prior:4;prior:16;"
            + "prior:64;laplace:1 for a GLMM, bootstrap:10;bootstrap:40;bootstrap:160 for SV.")
    List<String> likelihoods;

    @Option(names = "--particles", defaultValue = "500", description = "θ-particles M. Default: ${DEFAULT-VALUE}.")
    int particles;

    @Option(names = "--ess-target", defaultValue = "0.99", description = "Adaptive tempering's ρ. Default: ${DEFAULT-VALUE}.")
    double essTarget;

    @Option(names = "--moves", defaultValue = "1", description = "Pseudo-marginal moves per step. Default: ${DEFAULT-VALUE}.")
    int moves;

    @Option(names = "--seeds", defaultValue = "20", description = "Seeds per setting. Default: ${DEFAULT-VALUE}.")
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
        OptionChecks.atLeast("--particles", particles, 2);
        OptionChecks.atLeast("--moves", moves, 1);
        OptionChecks.atLeast("--seeds", seeds, 2);
        if (!(essTarget > 0 && essTarget < 1)) {
            throw new UserException("--ess-target must lie in (0, 1), got " + essTarget);
        }
        Problem problem = Problem.parse(model);
        LatentModel latent = problem.latentModel().orElseThrow(() -> new UserException(
                "bench aisel needs a latent-variable model: glmm:SET|FILE or sv:SET|FILE"));
        List<String> entries = AiselComparison.check(likelihoods == null ? AiselComparison.defaults(latent)
                : likelihoods, latent);
        Optional<Reference> against = referenceOption.optional(problem);
        OptionalDouble reference = against.map(r -> OptionalDouble.of(r.logZ())).orElse(OptionalDouble.empty());
        List<AiselComparison.Row> rows;
        try (ParticleBackend backend = backendOptions.open(); Progress progress = Progress.onTerminal("bench")) {
            rows = AiselComparison.run(backend, latent, entries, particles, essTarget, moves, seeds,
                    table.seed, reference, progress);
        }
        String markdown = AiselComparison.markdown(model, against, rows);
        table.write(markdown);
        Json.print(spec.commandLine().getOut(), new Report(model, against.orElse(null), particles, essTarget, moves, seeds,
                rows, markdown));
    }

    /** The JSON of {@code bench aisel}: one row per likelihood setting. */
    record Report(String model, Reference against, int particles, double essTarget, int moves, int seeds,
                  List<AiselComparison.Row> rows, String table) {
    }
}
