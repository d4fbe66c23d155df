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
import org.logz.UserException;

/** The files a command line names reach executors that do not share the driver's disk. */
class ArgumentFilesTest {
    @TempDir
    Path dir;

    @Test
    void namedFilesAreShippedAndFoundUnderTheirNamesWhereTheyAreMissing() throws Exception {
        Path model = Files.writeString(dir.resolve("m.npz"), "x");
        Path set = Files.writeString(dir.resolve("set.npz"), "y");
        Path prior = Files.writeString(dir.resolve("prior.txt"), "z");
        List<String> args = List.of("estimate", "--model", model.toString(), "--data=" + set, "--prior", prior.toString(),
                "--chains", "5", "gpc:digits35");
        List<String> shipped = new ArrayList<>();
        Map<String, String> names = ArgumentFiles.ship(args, shipped::add);
        assertEquals(List.of("m.npz", "set.npz", "prior.txt"), List.copyOf(names.values()));
        assertEquals(List.of(model.toString(), set.toString(), prior.toString()), shipped);

        assertEquals(args, ArgumentFiles.resolve(args, names, name -> "/elsewhere/" + name),
                "where the files exist (a shared disk, local mode) the arguments stay as given");
        Files.delete(model);
        Files.delete(set);
        assertEquals(List.of("estimate", "--model", "/elsewhere/m.npz", "--data=/elsewhere/set.npz", "--prior",
                prior.toString(), "--chains", "5", "gpc:digits35"),
                ArgumentFiles.resolve(args, names, name -> "/elsewhere/" + name));
    }

    @Test
    void aModelSpecNamingAFileAfterItsKindShipsTheFile() throws Exception {
        Path data = Files.writeString(dir.resolve("cases.npz"), "x");
        List<String> args = List.of("estimate", "--model", "gpc:" + data);
        Map<String, String> names = ArgumentFiles.ship(args, p -> { });
        assertEquals(Map.of(data.toString(), "cases.npz"), names);
        Files.delete(data);
        assertEquals(List.of("estimate", "--model", "gpc:/spark/cases.npz"),
                ArgumentFiles.resolve(args, names, name -> "/spark/" + name));
    }

    @Test
    void twoFilesOfOneNameAreRefused() throws Exception {
        Files.createDirectories(dir.resolve("a"));
        Files.createDirectories(dir.resolve("b"));
        Path one = Files.writeString(dir.resolve("a/m.npz"), "x");
        Path two = Files.writeString(dir.resolve("b/m.npz"), "y");
        UserException e = assertThrows(UserException.class,
                () -> ArgumentFiles.ship(List.of("--model", one.toString(), "--prior", two.toString()), p -> { }));
        assertTrue(e.getMessage().contains("two are named m.npz"), e.getMessage());
    }
}
