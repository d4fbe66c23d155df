package org.logz.io;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.AtomicFiles.Named;

class AtomicFilesTest {
    @TempDir
    Path dir;

    private static void write(Path file, String text) {
        AtomicFiles.write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static void assumePosix() {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file system");
    }

    private Path symlink(String name, Path target) throws IOException {
        Path link = dir.resolve(name);
        try {
            return Files.createSymbolicLink(link, target);
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "symbolic links unsupported");
            return link;
        }
    }

    /** A new file is created with the content and no temporary file is left behind. */
    @Test
    void writesANewFileAndLeavesNoTemporary() throws IOException {
        Path file = dir.resolve("out.txt");
        write(file, "hello");
        assertEquals("hello", Files.readString(file));
        assertEquals(List.of("out.txt"), names());
    }

    /** Writing through a symbolic link replaces the target's content and keeps the link a link. */
    @Test
    void writesThroughASymbolicLink() throws IOException {
        Path real = dir.resolve("real.txt");
        Files.writeString(real, "old");
        Path link = symlink("link.txt", Path.of("real.txt"));
        write(link, "new");
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertEquals(Path.of("real.txt"), Files.readSymbolicLink(link));
        assertEquals("new", Files.readString(real));
        assertEquals(real.toAbsolutePath().normalize(), AtomicFiles.target(link));
    }

    /** A dangling symbolic link is written through: its target is created. */
    @Test
    void writesThroughADanglingLink() throws IOException {
        Path link = symlink("dangling.txt", dir.resolve("created.txt"));
        write(link, "x");
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("x", Files.readString(dir.resolve("created.txt")));
    }

    /** A loop of symbolic links is a clear error, not an endless walk. */
    @Test
    void symbolicLinkLoopIsRefused() throws IOException {
        Path a = dir.resolve("a");
        symlink("b", a);
        symlink("a", dir.resolve("b"));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> write(a, "x"));
        assertTrue(e.getMessage().contains("too many levels of symbolic links"), e.getMessage());
    }

    /** Replacing an existing file keeps its POSIX permissions. */
    @Test
    void keepsThePermissionsOfAnExistingFile() throws IOException {
        assumePosix();
        Path file = dir.resolve("perm.txt");
        Files.writeString(file, "old");
        Set<PosixFilePermission> rwr = PosixFilePermissions.fromString("rw-r-----");
        Files.setPosixFilePermissions(file, rwr);
        write(file, "new");
        assertEquals("new", Files.readString(file));
        assertEquals(rwr, Files.getPosixFilePermissions(file));
    }

    /** The permissions kept through a symbolic link are the target's. */
    @Test
    void keepsTheTargetsPermissionsThroughALink() throws IOException {
        assumePosix();
        Path real = dir.resolve("real.txt");
        Files.writeString(real, "old");
        Set<PosixFilePermission> rwx = PosixFilePermissions.fromString("rwxr-x---");
        Files.setPosixFilePermissions(real, rwx);
        Path link = symlink("link.txt", real);
        write(link, "new");
        assertEquals(rwx, Files.getPosixFilePermissions(real));
    }

    /** An existing write-protected file is refused and left untouched. */
    @Test
    void refusesAWriteProtectedFile() throws IOException {
        assumePosix();
        Path file = dir.resolve("ro.txt");
        Files.writeString(file, "keep");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        assumeFalse(Files.isWritable(file), "running as root: nothing is write-protected");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> write(file, "lost"));
        assertTrue(e.getMessage().contains("write-protected"), e.getMessage());
        assertEquals("keep", Files.readString(file));
        assertEquals(List.of("ro.txt"), names());
    }

    /** A directory, or a file in a missing directory, is refused before anything is written. */
    @Test
    void refusesDirectoriesAndMissingDirectories() throws IOException {
        Files.createDirectory(dir.resolve("sub"));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> write(dir.resolve("sub"), "x"));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
        e = assertThrows(ModelFormatException.class, () -> write(dir.resolve("none").resolve("f.txt"), "x"));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    /**
     * A directory that takes no new file whatever its permission bits say (sysfs; root passes every permission check)
     * is refused by the check before any work, not at the first write; an empty name too.
     */
    @Test
    void refusesADirectoryThatTakesNoNewFile() {
        Path sys = Path.of("/sys/kernel");
        assumeTrue(Files.isDirectory(sys), "no sysfs here");
        ModelFormatException e = assertThrows(ModelFormatException.class,
                () -> AtomicFiles.checkWritable(sys.resolve("logz-test.ckpt")));
        assertTrue(e.getMessage().contains("/sys/kernel"), e.getMessage());
        e = assertThrows(ModelFormatException.class, () -> AtomicFiles.checkWritable(Path.of("")));
        assertTrue(e.getMessage().contains("name is empty"), e.getMessage());
        assertDoesNotThrow(() -> AtomicFiles.checkWritable(dir.resolve("fine.txt")));
        assertEquals(0, dir.toFile().list().length, "the probe leaves nothing behind");
    }

    /** A content writer that fails leaves the existing file as it was and no temporary file. */
    @Test
    void failedWriteKeepsTheOldFile() throws IOException {
        Path file = dir.resolve("keep.txt");
        Files.writeString(file, "old");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> AtomicFiles.write(file, out -> {
            out.write("partial".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        }));
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
        assertEquals("old", Files.readString(file));
        assertEquals(List.of("keep.txt"), names());
    }

    /** An output equal to an input is refused, naming both options. */
    @Test
    void requireDistinctRefusesAnOutputThatIsAnInput() throws IOException {
        Path model = dir.resolve("model.npz");
        Files.writeString(model, "m");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> AtomicFiles.requireDistinct(
                List.of(new Named("--work-file", model)), List.of(new Named("--model", model))));
        assertTrue(e.getMessage().contains("--work-file") && e.getMessage().contains("is the file --model reads"),
                e.getMessage());
        Path sameByName = dir.resolve(".").resolve("model.npz");
        assertThrows(ModelFormatException.class, () -> AtomicFiles.requireDistinct(
                List.of(new Named("--out", sameByName)), List.of(new Named("--model", model))));
    }

    /** Two outputs naming one file are refused, even before that file exists. */
    @Test
    void requireDistinctRefusesTwoEqualOutputs() {
        Path out = dir.resolve("out.txt");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> AtomicFiles.requireDistinct(
                List.of(new Named("--work-file", out), new Named("--reverse-work-file", out)), List.of()));
        assertTrue(e.getMessage().contains("--reverse-work-file and --work-file name the same file"), e.getMessage());
    }

    /** A symbolic link (even a dangling one) or a hard link to another path names the same file. */
    @Test
    void requireDistinctSeesThroughLinks() throws IOException {
        Path input = dir.resolve("in.txt");
        Files.writeString(input, "i");
        Path link = symlink("alias.txt", input);
        assertThrows(ModelFormatException.class, () -> AtomicFiles.requireDistinct(
                List.of(new Named("--out", link)), List.of(new Named("--in", input))));
        Path danglingOut = symlink("future.txt", dir.resolve("new.txt"));
        assertThrows(ModelFormatException.class, () -> AtomicFiles.requireDistinct(
                List.of(new Named("--a", danglingOut), new Named("--b", dir.resolve("new.txt"))), List.of()));
        Path hard = dir.resolve("hard.txt");
        try {
            Files.createLink(hard, input);
        } catch (UnsupportedOperationException e) {
            return;
        }
        assertThrows(ModelFormatException.class, () -> AtomicFiles.requireDistinct(
                List.of(new Named("--out", hard)), List.of(new Named("--in", input))));
    }

    /** Distinct files and absent (null) options pass. */
    @Test
    void requireDistinctAcceptsDistinctFilesAndSkipsNulls() throws IOException {
        Path input = dir.resolve("in.txt");
        Files.writeString(input, "i");
        List<Named> outputs = List.of(new Named("--a", dir.resolve("a.txt")), new Named("--b", null),
                new Named("--c", dir.resolve("c.txt")));
        assertDoesNotThrow(() -> AtomicFiles.requireDistinct(outputs,
                List.of(new Named("--in", input), new Named("--none", null))));
        assertFalse(AtomicFiles.sameFile(dir.resolve("a.txt"), dir.resolve("c.txt")));
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
