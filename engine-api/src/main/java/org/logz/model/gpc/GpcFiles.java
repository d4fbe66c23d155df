package org.logz.model.gpc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.io.UserPaths;
import org.logz.model.GpClassification;

/**
 * GP classification problems in .npz files (DESIGN §5): labels {@code y} (n,) of ±1 or 0/1, and
 * either inputs {@code X} (n, d) with optional 0-d {@code log_ell} and {@code log_sigma} for the
 * squared-exponential covariance, or the covariance {@code K} (n, n) itself. The shipped sets
 * {@value #SHIPPED} are resources built by {@code tools/datasets/make_gpc_sets.py}.
 */
public final class GpcFiles {
    /** The shipped problems, by the name after {@code gpc:}. */
    public static final String SHIPPED = "digits35, mnist35";

    /** The ARM paper's hardest setting (its Figure 2): the default hyperparameters. */
    public static final double DEFAULT_LOG_ELL = 4.85;
    public static final double DEFAULT_LOG_SIGMA = 5.1;

    private GpcFiles() {
    }

    /**
     * The problem {@code spec} names: a shipped set or an .npz file; {@code logEll} and {@code logSigma}
     * override the file's hyperparameters (and default to the paper's when the file has none).
     */
    public static GpClassification read(String spec, OptionalDouble logEll, OptionalDouble logSigma) {
        if (List.of(SHIPPED.split(", ")).contains(spec)) {
            String resource = "/org/logz/data/gpc-" + spec + ".npz";
            try (InputStream in = GpcFiles.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("shipped GP set " + spec + " is missing from the jar (" + resource + ")");
                }
                return parse(spec, Npz.read(spec, in), logEll, logSigma);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read shipped GP set " + spec, e);
            }
        }
        Path file = UserPaths.of(spec);
        if (!Files.isRegularFile(file)) {
            throw new UserException("gpc:" + spec + " is neither a shipped set (" + SHIPPED + ") nor a file");
        }
        return parse(file.toString(), Npz.read(file), logEll, logSigma);
    }

    /** The problem in arrays already read from {@code source} (other arrays are ignored). */
    public static GpClassification parse(String source, Map<String, NpyArray> arrays, OptionalDouble logEll,
                                         OptionalDouble logSigma) {
        NpyArray yArray = arrays.get("y");
        if (yArray == null) {
            throw new ModelFormatException(source + ": no labels; expected an array y of ±1 (or 0/1) and X or K, found "
                    + arrays.keySet());
        }
        boolean hasX = arrays.containsKey("X");
        boolean hasK = arrays.containsKey("K");
        if (hasX == hasK) {
            throw new ModelFormatException(source + (hasX ? ": holds both X and K; keep one" : ": no inputs X and no "
                    + "covariance K; found " + arrays.keySet()));
        }
        int[] labels = labels(source, yArray);
        int n = labels.length;
        if (hasK) {
            for (String name : List.of("log_ell", "log_sigma")) {
                if (arrays.containsKey(name)) {
                    throw new ModelFormatException(source + ": " + name + " sets the covariance of X, but the file gives K");
                }
            }
            if (logEll.isPresent() || logSigma.isPresent()) {
                throw new UserException(source + ": --log-ell and --log-sigma set the covariance of X, but the file gives K");
            }
            NpyArray k = floating(source, arrays.get("K"));
            if (k.rank() != 2 || k.shape()[0] != n || k.shape()[1] != n) {
                throw new ModelFormatException(source + ": K has shape " + NpyArray.shapeText(k.shape()) + ", expected ("
                        + n + "," + n + ") for " + n + " labels");
            }
            return new GpClassification(k.toDoubles(), labels, name(source));
        }
        NpyArray x = floating(source, arrays.get("X"));
        if (x.rank() != 2 || x.shape()[0] != n || x.shape()[1] == 0) {
            throw new ModelFormatException(source + ": X has shape " + NpyArray.shapeText(x.shape()) + ", expected (" + n
                    + ", d) with d ≥ 1 for " + n + " labels");
        }
        int d = x.shape()[1];
        double[] flat = x.toDoubles();
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            System.arraycopy(flat, i * d, rows[i], 0, d);
        }
        double ell = logEll.isPresent() ? logEll.getAsDouble() : scalar(source, arrays, "log_ell", DEFAULT_LOG_ELL);
        double sigma = logSigma.isPresent() ? logSigma.getAsDouble() : scalar(source, arrays, "log_sigma", DEFAULT_LOG_SIGMA);
        return GpClassification.squaredExponential(rows, labels, ell, sigma, name(source));
    }

    /** ±1 labels from y: all of 0/1 (0 is -1) or all of ±1; anything else is refused with its position. */
    private static int[] labels(String source, NpyArray y) {
        if (y.rank() != 1) {
            throw new ModelFormatException(source + ": y has shape " + NpyArray.shapeText(y.shape()) + ", expected (n,)");
        }
        if (y.size() == 0) {
            throw new ModelFormatException(source + ": y is empty (n = 0)");
        }
        double[] v = y.toDoubles();
        boolean zeroOne = true;
        for (double label : v) {
            zeroOne &= label == 0 || label == 1;
        }
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            if (!zeroOne && v[i] != 1 && v[i] != -1) {
                throw new ModelFormatException(source + ": y[" + i + "] is " + v[i] + "; labels are all ±1 or all 0/1");
            }
            out[i] = zeroOne ? (v[i] == 1 ? 1 : -1) : (int) v[i];
        }
        return out;
    }

    private static double scalar(String source, Map<String, NpyArray> arrays, String name, double fallback) {
        NpyArray a = arrays.get(name);
        if (a == null) {
            return fallback;
        }
        if (a.size() != 1 || a.kind() == NpyArray.Kind.BOOL) {
            throw new ModelFormatException(source + ": " + name + " has shape " + NpyArray.shapeText(a.shape())
                    + ", expected one number");
        }
        return a.toDoubles()[0];
    }

    private static NpyArray floating(String source, NpyArray array) {
        if (array.kind() != NpyArray.Kind.FLOAT) {
            throw new ModelFormatException(source + ": " + array.name().substring(array.name().lastIndexOf(':') + 1)
                    + " has dtype " + array.descr() + ", expected float32 or float64");
        }
        return array;
    }

    private static String name(String source) {
        return "gpc:" + source;
    }
}
