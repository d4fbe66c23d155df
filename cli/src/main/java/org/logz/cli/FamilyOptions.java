package org.logz.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.logz.options.AnnealingOptions;
import org.logz.options.FamilyOption;
import org.logz.options.SequentialOptions;
import org.logz.options.SharedOptions;
import org.logz.options.SmcOptions;
import org.logz.options.TemperingOptions;

import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Declares the method families' options on {@code logz estimate} from their tables, so that each option's name, label,
 * help and default are written once (in engine-api, where {@link org.logz.api.Estimation} reads them): in the help they
 * follow the command's own options up to {@code --tolerance}, family by family. Also lists the models in
 * {@code --model}'s help from the registered families ({@link ModelHelp}).
 */
public final class FamilyOptions implements IModelTransformer {
    /** Every family option the command line takes, in the order of the help; each name once. */
    static final List<FamilyOption<?>> ALL = Stream.of(SharedOptions.OPTIONS, AnnealingOptions.OPTIONS,
            TemperingOptions.OPTIONS, SequentialOptions.OPTIONS, SmcOptions.OPTIONS, SmcOptions.AISEL_OPTIONS).flatMap(List::stream)
            .filter(option -> option.help() != null).toList();

    /** The first of the command's own options that the help lists after the family options. */
    private static final String AFTER = "--tolerance";

    @Override
    public CommandSpec transform(CommandSpec spec) {
        // picocli lists options in the order they were added: take off those that follow, add the families', put back
        List<OptionSpec> after = new ArrayList<>();
        boolean found = false;
        for (OptionSpec option : spec.options()) {
            found |= option.longestName().equals(AFTER);
            if (found) {
                after.add(option);
            }
        }
        after.forEach(spec::remove);
        for (FamilyOption<?> option : ALL) {
            OptionSpec.Builder builder = OptionSpec.builder(option.name()).paramLabel(option.label()).type(option.type())
                    .description(option.help());
            if (option.defaultValue() != null) {
                builder.defaultValue(String.valueOf(option.defaultValue()));
            }
            spec.addOption(builder.build());
        }
        after.forEach(spec::addOption);
        return ModelHelp.describe(spec, "--model", ModelHelp.estimateModels());
    }
}
