package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.api.Estimation;
import org.logz.api.Logz;
import org.logz.base.UserException;
import org.logz.options.FamilyOption;
import org.logz.options.SequentialOptions;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The command line's family options are the tables' own: declared from them, and set on the estimation through them. */
class FamilyOptionsTest {
    private static CommandSpec estimate() {
        return Main.commandLine().getSubcommands().get("estimate").getCommandSpec();
    }

    @Test
    void everyTableOptionIsDeclaredOnceWithItsLabelTypeAndDefault() {
        CommandSpec spec = estimate();
        List<String> names = FamilyOptions.ALL.stream().map(FamilyOption::name).toList();
        assertEquals(names.size(), names.stream().distinct().count(), names.toString());
        for (FamilyOption<?> option : FamilyOptions.ALL) {
            OptionSpec declared = spec.findOption(option.name());
            assertNotNull(declared, option.name());
            assertEquals(option.label(), declared.paramLabel(), option.name());
            assertEquals(option.type(), declared.type(), option.name());
            assertEquals(option.defaultValue() == null ? null : String.valueOf(option.defaultValue()),
                    declared.defaultValue(), option.name());
        }
    }

    @Test
    void theHelpListsTheFamilyOptionsBeforeTolerance() {
        List<String> order = estimate().options().stream().map(OptionSpec::longestName).toList();
        int tolerance = order.indexOf("--tolerance");
        for (FamilyOption<?> option : FamilyOptions.ALL) {
            assertTrue(order.indexOf(option.name()) < tolerance, option.name() + " in " + order);
        }
    }

    @Test
    void theCommandLineChecksAValueAsTheApiDoes() {
        Cli.assertUserError(Cli.run("estimate", "--method", "arm", "--islands", "0"), "--islands must be between 1 and "
                + Estimation.MAX_REPLICATES + ", got 0");
        UserException refused = assertThrows(UserException.class, () -> Logz.demo().set(SequentialOptions.ISLANDS, 0));
        assertEquals("--islands must be between 1 and " + Estimation.MAX_REPLICATES + ", got 0", refused.getMessage());
    }
}
