package org.logz.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Loads the JNI libraries that backend modules ship as class-path resources. A library is extracted once per content
 * into the user's cache ({@code $XDG_CACHE_HOME/logz/native/<sha-256>/}, else {@code ~/.cache/...}), written to a
 * temporary file and renamed into place, and loaded from there: no copy per run, nothing left behind by a killed
 * process, and two processes extracting at once each see a whole file. Where the cache cannot be written, the library
 * goes to a temporary file removed when the JVM exits.
 */
public final class NativeLibraries {
    private NativeLibraries() {
    }

    /**
     * The directory of this machine's libraries among a module's resources, {@code <os>-<arch>} as the modules' build.sh
     * name it from {@code uname}: {@code linux-x86_64} or {@code linux-aarch64}; null on any other platform, for which
     * no library is built.
     */
    public static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux") ? "linux" : null;
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64" -> "aarch64";
            default -> null;
        };
        return os == null || arch == null ? null : os + "-" + arch;
    }

    /**
     * Loads {@code resource} (a path on {@code owner}'s class path) as {@code fileName}; empty when loaded, else why
     * not, starting with {@code missing} when the resource is absent.
     */
    public static String load(Class<?> owner, String resource, String fileName, String missing) {
        byte[] bytes;
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                return missing;
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            return fileName + " could not be read from the class path (" + e.getMessage() + ")";
        }
        try {
            System.load(extract(bytes, fileName).toAbsolutePath().toString());
            return "";
        } catch (IOException | UnsatisfiedLinkError e) {
            return fileName + " could not be loaded (" + e.getMessage() + ")";
        }
    }

    private static Path extract(byte[] bytes, String fileName) throws IOException {
        try {
            Path dir = cache().resolve(sha256(bytes));
            Path file = dir.resolve(fileName);
            if (Files.isRegularFile(file) && Files.size(file) == bytes.length) {
                return file;
            }
            Files.createDirectories(dir);
            Path part = Files.createTempFile(dir, fileName, ".part");
            try {
                Files.write(part, bytes);
                try {
                    Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(part);
            }
            return file;
        } catch (IOException | SecurityException e) {
            Path file = Files.createTempFile(fileName, ".so");
            file.toFile().deleteOnExit();
            Files.write(file, bytes);
            return file;
        }
    }

    private static Path cache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("logz").resolve("native");
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
