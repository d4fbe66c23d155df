package org.logz.model.latent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.logz.base.UserException;
import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.io.UserPaths;

/**
 * Data of the latent-variable models (DESIGN §5) in .npz files: a GLMM's {@code y} (n,) of 0/1, {@code X} (n, p) and
 * {@code group} (n,) integers 0..m-1; a stochastic volatility series {@code y} (T,). The shipped sets
 * ({@value #SHIPPED_GLMM}; {@value #SHIPPED_SV}) are resources built by {@code tools/datasets/make_latent_sets.py}.
 */
public final class LatentFiles {
    public static final String SHIPPED_GLMM = "sim20, sim8";
    public static final String SHIPPED_SV = "sim200";

    private LatentFiles() {
    }

    /** {@code glmm:SET|FILE}'s data: a shipped set or an .npz file. */
    public static Glmm glmm(String spec) {
        Map<String, NpyArray> arrays = arrays("glmm", spec, SHIPPED_GLMM);
        String source = "glmm:" + spec;
        NpyArray y = require(source, arrays, "y", "y (n,) of 0/1, X (n, p) and group (n,)");
        NpyArray x = require(source, arrays, "X", "y (n,) of 0/1, X (n, p) and group (n,)");
        NpyArray group = require(source, arrays, "group", "y (n,) of 0/1, X (n, p) and group (n,) of integers 0..m-1");
        if (y.rank() != 1) {
            throw new ModelFormatException(source + ": y has shape " + NpyArray.shapeText(y.shape()) + ", expected (n,)");
        }
        int n = y.size();
        if (x.rank() != 2 || x.shape()[0] != n || x.shape()[1] == 0) {
            throw new ModelFormatException(source + ": X has shape " + NpyArray.shapeText(x.shape()) + ", expected (" + n
                    + ", p) with p ≥ 1 for " + n + " responses");
        }
        if (group.rank() != 1 || group.size() != n) {
            throw new ModelFormatException(source + ": group has shape " + NpyArray.shapeText(group.shape())
                    + ", expected (" + n + ",)");
        }
        if (x.kind() != NpyArray.Kind.FLOAT) {
            throw new ModelFormatException(source + ": X has dtype " + x.descr() + ", expected float32 or float64");
        }
        return new Glmm(x.toDoubles(), integers(source, "y", y), integers(source, "group", group), x.shape()[1], source);
    }

    /** {@code sv:SET|FILE}'s returns: a shipped set or an .npz file with y (T,). */
    public static StochasticVolatility stochasticVolatility(String spec) {
        Map<String, NpyArray> arrays = arrays("sv", spec, SHIPPED_SV);
        String source = "sv:" + spec;
        NpyArray y = require(source, arrays, "y", "y (T,) of returns");
        if (y.rank() != 1 || y.kind() != NpyArray.Kind.FLOAT) {
            throw new ModelFormatException(source + ": y has shape " + NpyArray.shapeText(y.shape()) + " and dtype "
                    + y.descr() + ", expected (T,) of float32 or float64");
        }
        return new StochasticVolatility(y.toDoubles(), source);
    }

    /**
     * The arrays of {@code KIND:SPEC}: the shipped set {@code /org/logz/data/KIND-SPEC.npz} where {@code spec} is one of
     * {@code shipped} (comma-separated), else the .npz file it names; also the mixture model's reader.
     */
    public static Map<String, NpyArray> arrays(String kind, String spec, String shipped) {
        if (spec.isBlank()) {
            throw new UserException(kind + ": name a shipped set (" + shipped + ") or an .npz file");
        }
        if (List.of(shipped.split(", ")).contains(spec)) {
            String resource = "/org/logz/data/" + kind + "-" + spec + ".npz";
            try (InputStream in = LatentFiles.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("shipped set " + kind + ":" + spec + " is missing from the jar");
                }
                return Npz.read(kind + ":" + spec, in);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read shipped set " + kind + ":" + spec, e);
            }
        }
        Path file = UserPaths.of(spec);
        if (!Files.isRegularFile(file)) {
            throw new UserException(kind + ":" + spec + " is neither a shipped set (" + shipped + ") nor a file");
        }
        return Npz.read(file);
    }

    /** The array {@code name}, or a format error naming what {@code source} should hold and what it has. */
    public static NpyArray require(String source, Map<String, NpyArray> arrays, String name, String expected) {
        NpyArray a = arrays.get(name);
        if (a == null) {
            throw new ModelFormatException(source + ": no array " + name + "; expected " + expected + ", found "
                    + arrays.keySet());
        }
        return a;
    }

    /** Whole numbers of any dtype (a float array of integral values too), refused with the first that is not one. */
    private static int[] integers(String source, String name, NpyArray a) {
        double[] v = a.toDoubles();
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            if (!(v[i] == Math.rint(v[i]))) {
                throw new ModelFormatException(source + ": " + name + "[" + i + "] is " + v[i] + "; expected an integer");
            }
            if (!(Math.abs(v[i]) <= Integer.MAX_VALUE)) {
                throw new ModelFormatException(source + ": " + name + "[" + i + "] is " + v[i] + ", beyond the 32-bit "
                        + "integers logz reads");
            }
            out[i] = (int) v[i];
        }
        return out;
    }
}
