package org.logz.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/** NumPy {@code .npz} archives: a zip of {@code .npy} members, as written by {@code numpy.savez}. */
public final class Npz {
    private Npz() {
    }

    /** Reads every array of the archive, keyed by name without the {@code .npy} suffix. */
    public static Map<String, NpyArray> read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(file.toString(), in);
        } catch (NoSuchFileException e) {
            throw new ModelFormatException(file + ": no such file");
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** Reads every array of an archive from a stream; {@code source} names it in messages. */
    public static Map<String, NpyArray> read(String source, InputStream stream) {
        Map<String, NpyArray> arrays = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(stream)) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                String name = entry.getName();
                if (entry.isDirectory() || !name.endsWith(".npy")) {
                    continue;
                }
                String key = name.substring(0, name.length() - 4);
                arrays.put(key, Npy.read(source + ":" + key, zip));
            }
        } catch (ZipException | java.io.EOFException e) {
            throw new ModelFormatException(source + ": not a valid .npz archive (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new ModelFormatException(source + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (arrays.isEmpty()) {
            throw new ModelFormatException(source + ": not a .npz archive (no .npy members found)");
        }
        return arrays;
    }

    /** Writes the arrays as a compressed archive, atomically (see {@link AtomicFiles}). */
    public static void write(Path file, Collection<NpyArray> arrays) {
        AtomicFiles.write(file, out -> {
            ZipOutputStream zip = new ZipOutputStream(out);
            for (NpyArray array : arrays) {
                zip.putNextEntry(new ZipEntry(array.name() + ".npy"));
                zip.write(Npy.write(array));
                zip.closeEntry();
            }
            zip.finish();
        });
    }
}
