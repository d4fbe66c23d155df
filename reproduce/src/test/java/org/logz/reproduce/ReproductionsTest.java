package org.logz.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.logz.cli.Cli;
import org.logz.cli.Main;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.RbmFiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every {@code logz reproduce} entry runs end to end at a smoke scale (so that the commands keep working), through the
 * command line as a user runs it, and prints a number for every line; the command refuses what it cannot run.
 */
class ReproductionsTest {
    @TempDir
    Path dir;
    private static final Pattern NAME = Pattern.compile("[a-z]+-(fig|table|sec)[0-9a-z]+");

    @TestFactory
    Stream<DynamicTest> everyEntryRunsAtASmokeScale() {
        List<Reproduction> all = Reproductions.all();
        assertTrue(all.size() >= 3, all.toString());
        return all.stream().map(r -> DynamicTest.dynamicTest(r.name(), () -> {
            // a stand-in for the CD-25 RBM: its 784 visible units (so that --data mnist fits), too many hidden ones
            // to enumerate, and a reference of its own
            List<String> args = new ArrayList<>(List.of("reproduce", r.name(), "--scale", "0.001", "--json"));
            if (r.onCd25()) {
                Path standIn = dir.resolve("cd25-stand-in.npz");
                RbmFiles.write(standIn, RandomRbm.create(784, 32, 0.1, 25), Optional.empty());
                args.addAll(List.of("--model", standIn.toString(), "--reference", "560:0.5"));
            }
            Cli.Outcome o = Cli.run(args.toArray(String[]::new));
            assertEquals(0, o.code(), o.err());
            JsonNode report = new ObjectMapper().readTree(o.out());
            assertEquals(r.name(), report.get("name").asText());
            assertTrue(report.get("lines").size() >= 3, o.out());
            for (JsonNode line : report.get("lines")) {
                assertFalse(line.get("logz").asText().isBlank(), o.out());
                assertFalse(line.get("paper").asText().isBlank(), o.out());
            }
            assertFalse(report.get("verdict").asText().isBlank(), o.out());
            assertEquals("smoke run, not a reproduction", report.get("status").asText(), o.out());
        }));
    }

    @Test
    void namesAreUniqueAndListedOneALine() {
        Set<String> names = new HashSet<>();
        for (Reproduction r : Reproductions.all()) {
            assertTrue(NAME.matcher(r.name()).matches(), r.name());
            assertTrue(names.add(r.name()), "twice: " + r.name());
            assertTrue(r.defaultScale() > 0 && r.defaultScale() <= 1, r.name());
        }
        Cli.Outcome list = Cli.run("reproduce", "--list");
        assertEquals(0, list.code(), list.err());
        List<String> lines = list.out().lines().toList();
        assertEquals(names.size(), lines.size(), list.out());
        for (String line : lines) {
            assertTrue(names.contains(line.split(" ")[0]), line);
        }
    }

    /** The text report: the paper's and logz's columns, a verdict that names a smoke run as one, and the time. */
    @Test
    void theTableShowsThePapersNumbersBesideLogzs() {
        Cli.Outcome o = Cli.run("reproduce", "habeck-fig3", "--scale", "0.002");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("exact log(Z/2^1024)") && o.out().contains("1339.27  "), o.out());
        assertTrue(o.out().matches("(?s).*\\n\\s+paper\\s+logz\\n.*"), o.out());
        assertTrue(o.out().contains("verdict    smoke run, not a reproduction: "), o.out());
        assertTrue(o.out().matches("(?s).*\\ntime       \\d+\\.\\d s\\n"), o.out());
    }

    @Test
    void badRequestsAreOneLineUserErrors() {
        Cli.assertUserError(Cli.run("reproduce", "habeck-fig3", "--model", "x.npz"), "does not run on the CD-25 RBM");
        Cli.assertUserError(Cli.run("reproduce", "rts-fig3", "--model", dir.resolve("absent.npz").toString()),
                "absent.npz not found: this reproduction runs on the CD-25 MNIST RBM");
        Cli.assertUserError(Cli.run("reproduce"), "a reproduction NAME is missing");
        Cli.assertUserError(Cli.run("reproduce", "habeck-fig9"), "no reproduction 'habeck-fig9'; one of ");
        Cli.assertUserError(Cli.run("reproduce", "habeck-fig3", "--scale", "0"), "--scale must lie in (0, 1]");
        Cli.assertUserError(Cli.run("reproduce", "habeck-fig3", "--scale", "1.5"), "--scale must lie in (0, 1]");
        Cli.assertUserError(Cli.run("reproduce", "habeck-fig3", "--scale", "NaN"), "--scale");
        Cli.assertUserError(Cli.run("reproduce", "--list", "habeck-fig3"), "--list takes no NAME");
        Cli.assertUserError(Cli.run("reproduce", "--list", "--seed", "5"), "--list takes no NAME and no other option");
        Cli.assertUserError(Cli.run("reproduce", "rts-fig3", "--model", dir.toString()), "is not a file");
        assertEquals(Main.USER_ERROR, Cli.run("reproduce", "habeck-fig3", "--threads", "0").code());
    }
}
