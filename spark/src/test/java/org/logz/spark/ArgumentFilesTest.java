package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.base.UserException;

/** The input files a command line names reach the tasks as Spark's copies, wherever the tasks run. */
class ArgumentFilesTest {
    @TempDir
    Path dir;

    @Test
    void inputFilesAreShippedAndTasksReadTheCopies() throws Exception {
        Path model = Files.writeString(dir.resolve("m.npz"), "x");
        Path set = Files.writeString(dir.resolve("set.npz"), "y");
        Path prior = Files.writeString(dir.resolve("prior.txt"), "z");
        Path work = Files.writeString(dir.resolve("work.txt"), "old output");
        List<String> args = List.of("estimate", "--model", model.toString(), "--data=" + set, "--prior", prior.toString(),
                "--work", work.toString(), "--chains", "5");
        List<String> shipped = new ArrayList<>();
        Map<String, String> names = ArgumentFiles.ship(args, shipped::add);
        assertEquals(List.of(model.toString(), set.toString(), prior.toString()), shipped,
                "inputs only: an output that exists is not shipped");
        assertEquals(List.of("estimate", "--model", "/copies/m.npz", "--data", "/copies/set.npz", "--prior",
                "/copies/prior.txt", "--work", work.toString(), "--chains", "5"),
                ArgumentFiles.resolve(args, names, name -> "/copies/" + name),
                "the copies even where the driver's files exist: a file rewritten mid-run does not reach the tasks");
    }

    @Test
    void aModelSpecNamingAFileAfterItsKindShipsTheFile() throws Exception {
        Path data = Files.writeString(dir.resolve("cases.npz"), "x");
        List<String> args = List.of("estimate", "--model", "gpc:" + data, "--data", "digits");
        Map<String, String> names = ArgumentFiles.ship(args, p -> { });
        assertEquals(Map.of(data.toString(), "cases.npz"), names);
        assertEquals(List.of("estimate", "--model", "gpc:/spark/cases.npz", "--data", "digits"),
                ArgumentFiles.resolve(args, names, name -> "/spark/" + name));
    }

    @Test
    void twoInputFilesOfOneNameAreRefused() throws Exception {
        Files.createDirectories(dir.resolve("a"));
        Files.createDirectories(dir.resolve("b"));
        Path one = Files.writeString(dir.resolve("a/m.npz"), "x");
        Path two = Files.writeString(dir.resolve("b/m.npz"), "y");
        UserException e = assertThrows(UserException.class,
                () -> ArgumentFiles.ship(List.of("--model", one.toString(), "--prior", two.toString()), p -> { }));
        assertTrue(e.getMessage().contains("two are named m.npz"), e.getMessage());
    }
}
