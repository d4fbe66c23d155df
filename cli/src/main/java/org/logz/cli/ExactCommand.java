package org.logz.cli;

import java.nio.file.Path;
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
        description = "Exact log Z of an RBM by Gray-code enumeration of its smaller layer (at most "
                + RbmEnumeration.MAX_UNITS + " units). Prints one JSON object.")
final class ExactCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--model", paramLabel = "FILE", description = "RBM .npz file. Default: the demo RBM.")
    Path model;

    @Override
    public void run() {
        ModelSource source = ModelSource.resolve(model);
        Rbm rbm = source.rbm();
        long started = System.nanoTime();
        double logZ = RbmEnumeration.logZ(rbm);
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
