package org.logz.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes files so that they appear only when complete: content goes to a temporary file next to
 * the target, which is then moved into place. A failure never leaves a half-written file.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Produces a file's content. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Checks, before any work is done, that {@code file} can be created: its directory exists and
     * is writable.
     *
     * @throws ModelFormatException otherwise
     */
    public static void checkWritable(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new ModelFormatException(file + ": directory " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new ModelFormatException(file + ": directory " + dir + " is not writable");
        }
        if (Files.isDirectory(file)) {
            throw new ModelFormatException(file + ": is a directory");
        }
    }

    /** Writes {@code content} to {@code file} atomically, replacing any existing file. */
    public static void write(Path file, Content content) {
        checkWritable(file);
        Path tmp = null;
        try {
            // not Files.createTempFile, which makes the file private (0600) instead of honouring the umask
            tmp = file.toAbsolutePath().resolveSibling("." + file.getFileName() + "." + System.nanoTime() + ".part");
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                content.writeTo(out);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
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
        }
    }
}
