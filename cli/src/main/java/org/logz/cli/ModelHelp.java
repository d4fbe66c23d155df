package org.logz.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.logz.problem.ModelFamilies;
import org.logz.problem.ModelFamily;

import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The help texts that list the models, built from the registered {@link ModelFamily}s (in their order) rather than
 * written out, so that a new model family appears in {@code logz estimate --help} and {@code logz exact --help}
 * without an edit here.
 */
final class ModelHelp implements IModelTransformer {
    /** {@code logz estimate}'s {@code --model}: every family's specs. */
    static String estimateModels() {
        return ModelFamilies.joined(ModelFamilies.all().stream().flatMap(f -> f.help().stream()).toList(), ", ", " or ")
                + ". Default: the demo RBM.";
    }

    /** {@code logz exact}'s description: how each family with an exact log Z finds it. */
    static String exactDescription() {
        return "Exact log Z: " + String.join(", ", ModelFamilies.all().stream().map(ModelFamily::exactHelp)
                .flatMap(Optional::stream).toList()) + ". Prints one JSON object.";
    }

    /** Replaces the description of {@code name} by {@code text}, keeping the option's place in the help. */
    static CommandSpec describe(CommandSpec spec, String name, String text) {
        List<OptionSpec> options = new ArrayList<>(spec.options());
        options.forEach(spec::remove);
        for (OptionSpec option : options) {
            spec.addOption(option.longestName().equals(name) ? option.toBuilder().description(text).build() : option);
        }
        return spec;
    }

    /** {@code logz exact}: its description from the families. */
    @Override
    public CommandSpec transform(CommandSpec spec) {
        spec.usageMessage().description(exactDescription());
        return spec;
    }
}
