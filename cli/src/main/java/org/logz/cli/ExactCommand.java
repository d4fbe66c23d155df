package org.logz.cli;

import java.util.Optional;

import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.problem.Problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz exact}: log Z by enumeration of the smaller layer, as one JSON object. */
@Command(name = "exact", mixinStandardHelpOptions = true, modelTransformer = ModelHelp.class)
final class ExactCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--model", paramLabel = "MODEL",
            description = "A model as for logz estimate --model, of a family with an exact log Z (above). Default: the "
                    + "demo RBM.")
    String model;

    @Option(names = "--log-ell", paramLabel = "L", description = "GP classification: log length scale.")
    Double logEll;

    @Option(names = "--log-sigma", paramLabel = "S", description = "GP classification: log signal standard deviation.")
    Double logSigma;

    @Override
    public void run() {
        long started = System.nanoTime();
        Problem problem = Problem.parse(model, OptionChecks.optional(logEll), OptionChecks.optional(logSigma));
        Optional<Rbm> enumerable = problem.rbm();
        if (enumerable.isEmpty()) {
            Problem.Exact exact = problem.exact();
            Json.print(spec.commandLine().getOut(), new Formula(exact.logZ(), EstimateReport.Convention.of(problem,
                    exact.logZ(), null), problem.describe(), exact.method(), exact.error(), (System.nanoTime() - started) * 1e-9));
            return;
        }
        Rbm rbm = enumerable.get();
        double logZ;
        try (Progress progress = Progress.onTerminal("exact")) {
            logZ = RbmEnumeration.logZ(rbm, progress);
        }
        Json.print(spec.commandLine().getOut(), new Enumeration(logZ, problem.describe().model(), rbm.visible(), rbm.hidden(),
                rbm.hidden() <= rbm.visible() ? "hidden" : "visible", 1L << Math.min(rbm.visible(), rbm.hidden()),
                (System.nanoTime() - started) * 1e-9));
    }

    /**
     * The JSON for a model with a closed form or a quadrature; {@code quadratureError} (quadratures only) is the
     * difference between the 16- and 24-node rules, at most 1e-3 for a value to be printed; {@code convention} log Z
     * as papers write it (null where there is one form).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Formula(double logZ, EstimateReport.Convention convention, @JsonUnwrapped Problem.Description problem,
                   String formula, Double quadratureError,
                   double seconds) {
    }

    /** The JSON for an RBM: which layer was summed over and how many states of the other. */
    record Enumeration(double logZ, String model, int visible, int hidden, String enumerated, long states, double seconds) {
    }
}
