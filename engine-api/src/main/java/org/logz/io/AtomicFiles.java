package org.logz.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.List;

/**
 * Writes files so that they appear only when complete: content goes to a temporary file next to
 * the target, forced to disk, then moved into place. A failure never leaves a half-written file. A symbolic
 * link is written through (its target is replaced and the link stays), an existing file keeps its
 * permissions, and a write-protected file is refused rather than replaced.
 */
public final class AtomicFiles {
    /** Symbolic links followed before a chain is called a loop. */
    private static final int MAX_LINKS = 40;

    private AtomicFiles() {
    }

    /** Produces a file's content. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * The file a write to {@code file} replaces: {@code file} itself, or where its chain of symbolic
     * links ends (which may not exist yet), as an absolute normalized path.
     */
    public static Path target(Path file) {
        Path p = realDirectory(file.toAbsolutePath());
        for (int i = 0; i < MAX_LINKS; i++) {
            if (!Files.isSymbolicLink(p)) {
                return p;
            }
            try {
                p = realDirectory(p.resolveSibling(Files.readSymbolicLink(p)).toAbsolutePath());
            } catch (IOException e) {
                throw new ModelFormatException(file + ": cannot follow the symbolic link (" + e.getMessage() + ")");
            }
        }
        throw new ModelFormatException(file + ": too many levels of symbolic links");
    }

    /**
     * {@code path} with its directory resolved as the operating system resolves it (links followed
     * before {@code ..}, so {@code link/../f} is next to the link's target, not next to the link), and
     * its last name kept; when the directory does not exist, the path normalized as text.
     */
    private static Path realDirectory(Path path) {
        Path parent = path.getParent();
        Path name = path.getFileName();
        if (parent == null || name == null || name.toString().equals("..") || name.toString().equals(".")) {
            return path.normalize();
        }
        try {
            return parent.toRealPath().resolve(name);
        } catch (IOException e) {
            return path.normalize();
        }
    }

    /**
     * Whether two paths name the same file once links are followed: for outputs that must not replace
     * an input or each other.
     */
    public static boolean sameFile(Path a, Path b) {
        Path ta = target(a);
        Path tb = target(b);
        if (ta.equals(tb)) {
            return true;
        }
        try {
            return Files.exists(ta) && Files.exists(tb) && Files.isSameFile(ta, tb);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Refuses outputs that name the same file as one of {@code inputs} or as another output.
     *
     * @param outputs option name and path of each output (null paths are skipped)
     * @param inputs  option name and path of each input the run reads (null paths are skipped)
     */
    public static void requireDistinct(List<Named> outputs, List<Named> inputs) {
        for (int i = 0; i < outputs.size(); i++) {
            Named out = outputs.get(i);
            if (out.path() == null) {
                continue;
            }
            for (Named in : inputs) {
                if (in.path() != null && sameFile(out.path(), in.path())) {
                    throw new ModelFormatException(out.option() + " " + out.path() + " is the file " + in.option()
                            + " reads; writing it would destroy the input");
                }
            }
            for (int j = 0; j < i; j++) {
                Named other = outputs.get(j);
                if (other.path() != null && sameFile(out.path(), other.path())) {
                    throw new ModelFormatException(out.option() + " and " + other.option() + " name the same file "
                            + out.path() + "; one would overwrite the other");
                }
            }
        }
    }

    /** A path given to a command-line option, for messages. */
    public record Named(String option, Path path) {
    }

    /**
     * Checks, before any work is done, that {@code file} can be written: the directory of its target
     * exists and takes a new file (a probe, created and removed), the target is not a directory and, if it
     * exists, is not write-protected.
     *
     * @throws ModelFormatException otherwise
     */
    public static void checkWritable(Path file) {
        probe(file, checkTarget(file));
    }

    /** The checks of {@link #checkWritable} a write repeats, short of the probe; returns the target's directory. */
    private static Path checkTarget(Path file) {
        if (file.toString().isEmpty()) {
            throw new ModelFormatException("an output file's name is empty");
        }
        Path target = target(file);
        Path dir = target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new ModelFormatException(file + ": directory " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new ModelFormatException(file + ": directory " + dir + " is not writable");
        }
        if (Files.isDirectory(target)) {
            throw new ModelFormatException(file + ": is a directory");
        }
        Path given = file.toAbsolutePath().normalize();
        if (given.startsWith("/proc") || given.startsWith("/dev") || target.startsWith("/proc") || target.startsWith("/dev")
                || Files.exists(target) && !Files.isRegularFile(target)) {
            throw new ModelFormatException(file + ": is not a regular file (a device, pipe or process file); logz writes "
                    + "outputs atomically by replacing a regular file, name one");
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(target)) {
            throw new ModelFormatException(file + ": is write-protected; logz does not replace it");
        }
        return dir;
    }

    /**
     * Creates and removes a file in {@code dir}: the permission bits say nothing to root, nor of a
     * read-only mount or a file system that takes no new files (sysfs), and an output that fails only
     * at its first write, a checkpoint after an hour, must fail now.
     */
    private static void probe(Path file, Path dir) {
        Path probe = dir.resolve(".logz-" + Long.toHexString(System.nanoTime()) + ".probe");
        try {
            Files.createFile(probe);
            Files.delete(probe);
        } catch (IOException e) {
            throw new ModelFormatException(file + ": directory " + dir + " takes no new file ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** Writes {@code content} to {@code file} (through symbolic links) atomically, replacing an existing file. */
    public static void write(Path file, Content content) {
        checkTarget(file);
        Path target = target(file);
        Path tmp = null;
        Path created = null;
        try {
            // not Files.createTempFile, which makes the file private (0600) instead of honouring the umask
            tmp = target.resolveSibling(".logz-" + Long.toHexString(System.nanoTime()) + ".part");
            created = tmp;
            Pending.add(created);
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                OutputStream out = Channels.newOutputStream(channel);
                content.writeTo(out);
                out.flush();
                // on disk before the rename makes it the file: after a crash of the machine the old file or the new
                channel.force(true);
            }
            keepPermissions(target, tmp);
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot write (" + e.getMessage() + ")", e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original failure is what the caller needs to see
                }
            }
            Pending.remove(created);
        }
    }

    /** Gives {@code replacement} the POSIX permissions of {@code existing}, where both are supported. */
    private static void keepPermissions(Path existing, Path replacement) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(existing, PosixFileAttributeView.class);
        if (view != null && Files.exists(existing)) {
            Files.setPosixFilePermissions(replacement, view.readAttributes().permissions());
        }
    }

    /**
     * Temporary files being written: a JVM stopped by SIGTERM or SIGINT in the middle of a write removes them on its
     * way out (SIGKILL leaves the partial {@code .logz-*.part} file; the target itself is never half-written).
     */
    private static final class Pending {
        private static final java.util.Set<Path> FILES = java.util.concurrent.ConcurrentHashMap.newKeySet();

        static {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (Path p : FILES) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException ignored) {
                        // the JVM is exiting; nothing is left to tell
                    }
                }
            }, "logz-partial-files"));
        }

        private Pending() {
        }

        static void add(Path tmp) {
            FILES.add(tmp);
        }

        static void remove(Path tmp) {
            if (tmp != null) {
                FILES.remove(tmp);
            }
        }
    }
}
