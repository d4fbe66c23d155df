package org.logz.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.logz.io.ModelFormatException;
import org.logz.io.UserPaths;
import org.logz.io.NpyArray;
import org.logz.io.Npz;

/**
 * Data sets by name or file. Shipped names (see {@code tools/datasets/README.md} for provenance):
 * {@code mnist} (10,000 × 784 binarized MNIST digits) and {@code digits} (1,797 × 64 binarized 8×8
 * digits). A file is an {@code .npz} holding either {@code X (n, d)} of 0/1 values of any numeric
 * type, or the packed form of the shipped sets ({@code bits}, {@code dim}, optional {@code labels}).
 */
public final class Datasets {
    /** Names of the data sets shipped inside the jar. */
    public static final List<String> SHIPPED = List.of("mnist", "digits");

    private Datasets() {
    }

    /** A shipped data set by name, or a file by path. */
    public static BinaryDataset load(String nameOrFile) {
        if (SHIPPED.contains(nameOrFile)) {
            return shipped(nameOrFile);
        }
        Path file = UserPaths.of(nameOrFile);
        if (!Files.exists(file)) {
            throw new ModelFormatException(nameOrFile + ": not a shipped data set (" + String.join(", ", SHIPPED)
                    + ") and no such file");
        }
        String name = file.getFileName().toString().replaceFirst("\\.npz$", "");
        return fromArrays(name, nameOrFile, Npz.read(file));
    }

    /** One of the shipped data sets. */
    public static BinaryDataset shipped(String name) {
        String resource = "/org/logz/data/" + name + ".npz";
        try (InputStream in = Datasets.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("shipped data set " + name + " is missing from the jar (" + resource + ")");
            }
            return fromArrays(name, name, Npz.read(name, in));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read shipped data set " + name, e);
        }
    }

    private static BinaryDataset fromArrays(String name, String source, Map<String, NpyArray> arrays) {
        byte[] labels = arrays.containsKey("labels") ? labels(source, arrays.get("labels")) : null;
        if (arrays.containsKey("X")) {
            return dense(name, source, arrays.get("X"), labels);
        }
        if (arrays.containsKey("bits") && arrays.containsKey("dim")) {
            return packed(name, source, arrays.get("bits"), arrays.get("dim"), labels);
        }
        throw new ModelFormatException(source + ": expected an array X (examples × units) of 0/1 values, or bits and dim;"
                + " found " + arrays.keySet());
    }

    private static BinaryDataset dense(String name, String source, NpyArray x, byte[] labels) {
        if (x.rank() != 2) {
            throw new ModelFormatException(source + ": X must be a matrix (examples × units), has rank " + x.rank());
        }
        int[] shape = x.shape();
        checkLabels(source, labels, shape[0]);
        double[] values = x.toDoubles();
        float[] binary = new float[values.length];
        for (int k = 0; k < values.length; k++) {
            if (values[k] != 0.0 && values[k] != 1.0) {
                throw new ModelFormatException(source + ": X[" + k / shape[1] + "," + k % shape[1] + "] = " + values[k]
                        + "; data must be binary (0 or 1)");
            }
            binary[k] = (float) values[k];
        }
        return BinaryDataset.of(name, shape[0], shape[1], binary, labels);
    }

    private static BinaryDataset packed(String name, String source, NpyArray bits, NpyArray dimArray, byte[] labels) {
        if (dimArray.size() != 1) {
            throw new ModelFormatException(source + ": dim must be a scalar");
        }
        int dim = (int) dimArray.toDoubles()[0];
        int[] shape = bits.shape();
        if (bits.rank() != 2 || dim < 1 || shape[1] != (dim + 7) / 8) {
            throw new ModelFormatException(source + ": bits has shape (" + (shape.length > 0 ? shape[0] : 0) + ", "
                    + (shape.length > 1 ? shape[1] : 0) + "), which does not pack " + dim + " units per row");
        }
        checkLabels(source, labels, shape[0]);
        try {
            return BinaryDataset.ofPacked(name, shape[0], dim, bits.toBytes(), labels);
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(source + ": " + e.getMessage(), e);
        }
    }

    private static byte[] labels(String source, NpyArray labels) {
        double[] values = labels.toDoubles();
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] > 255 || values[i] != Math.rint(values[i])) {
                throw new ModelFormatException(source + ": labels[" + i + "] = " + values[i] + " is not a class 0..255");
            }
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static void checkLabels(String source, byte[] labels, int examples) {
        if (labels != null && labels.length != examples) {
            throw new ModelFormatException(source + ": " + labels.length + " labels for " + examples + " examples");
        }
    }
}
