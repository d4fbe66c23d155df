package org.logz.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import org.logz.exact.RbmEnumeration;
import org.logz.model.Rbm;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz exact}: log Z by enumeration of the smaller layer, as one JSON object. */
@Command(name = "exact", mixinStandardHelpOptions = true,
        description = "Exact log Z: of an RBM by Gray-code enumeration of its smaller layer (at most "
                + RbmEnumeration.MAX_UNITS + " units), of ising:L=N by Kaufman's formula, of gauss-toy in closed form. "
                + "Prints one JSON object.")
final class ExactCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--model", paramLabel = "MODEL", description = "RBM .npz file, ising:L=N or gauss-toy[:...]. Default: the demo RBM.")
    String model;

    @Override
    public void run() {
        long started = System.nanoTime();
        Problem problem = Problem.parse(model);
        if (!(problem instanceof Problem.RbmProblem rbmProblem)) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("logZ", problem.exactLogZ(true).orElseThrow());
            o.putAll(problem.describe());
            o.put("formula", problem instanceof Problem.IsingProblem ? "Kaufman (1949)" : "closed form");
            o.put("seconds", (System.nanoTime() - started) * 1e-9);
            Json.print(spec.commandLine().getOut(), o);
            return;
        }
        ModelSource source = rbmProblem.source();
        Rbm rbm = source.rbm();
        double logZ;
        try (Progress progress = Progress.onTerminal("exact")) {
            logZ = RbmEnumeration.logZ(rbm, progress);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("logZ", logZ);
        o.put("model", source.name());
        o.put("visible", rbm.visible());
        o.put("hidden", rbm.hidden());
        o.put("enumerated", rbm.hidden() <= rbm.visible() ? "hidden" : "visible");
        o.put("states", 1L << Math.min(rbm.visible(), rbm.hidden()));
        o.put("seconds", (System.nanoTime() - started) * 1e-9);
        Json.print(spec.commandLine().getOut(), o);
    }
}
