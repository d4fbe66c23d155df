package org.logz.model.rbm;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.memory.HostMemory;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;

/**
 * RBM model files: {@code .npz} with {@code W (N,H)}, {@code a (N,)}, {@code b (H,)} and optionally
 * {@code a0 (N,)} base-rate log-odds; or scikit-learn's {@code BernoulliRBM} attributes
 * {@code components_ (H,N)}, {@code intercept_visible_ (N,)}, {@code intercept_hidden_ (H,)}.
 * Arrays must be float32 or float64. Every problem is a {@link ModelFormatException} naming the
 * file, the array and what is wrong.
 */
public final class RbmFiles {
    private RbmFiles() {
    }

    /** A model as read from a file, with the base rate it carries if any. */
    public record RbmFile(Rbm rbm, Optional<BaseRate> baseRate) {
    }

    public static RbmFile read(Path file) {
        return parse(file.toString(), Npz.read(file));
    }

    public static RbmFile read(String source, InputStream in) {
        return parse(source, Npz.read(source, in));
    }

    private static RbmFile parse(String source, Map<String, NpyArray> arrays) {
        boolean native_ = arrays.containsKey("W");
        boolean sklearn = arrays.containsKey("components_") || arrays.containsKey("intercept_visible_")
                || arrays.containsKey("intercept_hidden_");
        if (!native_ && !sklearn) {
            throw new ModelFormatException(source + ": no weight matrix; expected arrays W, a, b (and optionally a0)"
                    + " or scikit-learn's components_, intercept_visible_, intercept_hidden_; found " + arrays.keySet());
        }
        Rbm rbm = parse(source, arrays, native_);
        if (native_ && sklearn) {
            requireSame(source, rbm, parse(source, arrays, false));
        }
        Optional<BaseRate> base = Optional.empty();
        if (arrays.containsKey("a0")) {
            float[] a0 = vector(source, arrays.get("a0"), rbm.visible(), "visible");
            try {
                base = Optional.of(BaseRate.of(a0, "model file"));
            } catch (IllegalArgumentException e) {
                throw new ModelFormatException(source + ": " + e.getMessage(), e);
            }
        }
        return new RbmFile(rbm, base);
    }

    /** A file with both naming conventions is read only when both describe the same model. */
    private static void requireSame(String source, Rbm own, Rbm sklearn) {
        String differs = own.visible() != sklearn.visible() || own.hidden() != sklearn.hidden()
                ? "shapes " + own + " and " + sklearn
                : !sameValues(own.weights(), sklearn.weights()) ? "W and components_ᵀ"
                : !sameValues(own.visibleBias(), sklearn.visibleBias()) ? "a and intercept_visible_"
                : !sameValues(own.hiddenBias(), sklearn.hiddenBias()) ? "b and intercept_hidden_" : null;
        if (differs != null) {
            throw new ModelFormatException(source + ": holds both W, a, b and scikit-learn's components_, intercept_visible_, "
                    + "intercept_hidden_, and they disagree (" + differs + " differ); keep one set");
        }
    }

    /** Equal as numbers (0.0 and -0.0 are the same weight; parameters are finite). */
    private static boolean sameValues(float[] a, float[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** The model from the native arrays or from scikit-learn's. */
    private static Rbm parse(String source, Map<String, NpyArray> arrays, boolean native_) {
        String wName = native_ ? "W" : "components_";
        String aName = native_ ? "a" : "intercept_visible_";
        String bName = native_ ? "b" : "intercept_hidden_";
        List<String> missing = new ArrayList<>();
        for (String name : List.of(wName, aName, bName)) {
            if (!arrays.containsKey(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            throw new ModelFormatException(source + ": missing array" + (missing.size() > 1 ? "s " : " ")
                    + String.join(", ", missing));
        }
        NpyArray wArray = floating(source, arrays.get(wName));
        if (wArray.rank() != 2) {
            throw new ModelFormatException(source + ": " + wName + " has shape " + NpyArray.shapeText(wArray.shape())
                    + ", expected a matrix");
        }
        int[] shape = wArray.shape();
        int visible = native_ ? shape[0] : shape[1];
        int hidden = native_ ? shape[1] : shape[0];
        if (visible == 0 || hidden == 0) {
            throw new ModelFormatException(source + ": " + wName + " has shape " + NpyArray.shapeText(shape) + ", which is empty");
        }
        // the float32 weights, the model's own copy and a transposed one: refused up front where the heap cannot hold them
        HostMemory.requireHeap(4L * wArray.size() * (native_ ? 2 : 3), source + ": a " + NpyArray.shapeText(shape) + " weight matrix");
        float[] w = toFloats(source, wName, wArray);
        if (!native_) {
            w = transpose(w, hidden, visible);
        }
        float[] a = vector(source, arrays.get(aName), visible, "visible");
        float[] b = vector(source, arrays.get(bName), hidden, "hidden");
        try {
            return new Rbm(visible, hidden, w, a, b);
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(source + ": " + e.getMessage(), e);
        }
    }

    /** Writes W, a, b (float32) and, when given, a0 (the base rate) atomically. */
    public static void write(Path file, Rbm rbm, Optional<BaseRate> baseRate) {
        List<NpyArray> arrays = new ArrayList<>();
        arrays.add(NpyArray.ofFloats("W", new int[] {rbm.visible(), rbm.hidden()}, rbm.weights()));
        arrays.add(NpyArray.ofFloats("a", new int[] {rbm.visible()}, rbm.visibleBias()));
        arrays.add(NpyArray.ofFloats("b", new int[] {rbm.hidden()}, rbm.hiddenBias()));
        baseRate.ifPresent(base -> arrays.add(NpyArray.ofFloats("a0", new int[] {rbm.visible()}, base.logOdds())));
        Npz.write(file, arrays);
    }

    private static NpyArray floating(String source, NpyArray array) {
        if (array.kind() != NpyArray.Kind.FLOAT) {
            throw new ModelFormatException(source + ": " + array.name().substring(array.name().lastIndexOf(':') + 1)
                    + " has dtype " + array.descr() + ", expected float32 or float64");
        }
        return array;
    }

    private static float[] vector(String source, NpyArray array, int length, String layer) {
        floating(source, array);
        String name = array.name().substring(array.name().lastIndexOf(':') + 1);
        int[] shape = array.shape();
        int nonSingleton = 0;
        for (int d : shape) {
            if (d != 1) {
                nonSingleton++;
            }
        }
        if (array.size() != length || nonSingleton > 1) {
            throw new ModelFormatException(source + ": " + name + " has shape " + NpyArray.shapeText(shape) + ", expected ("
                    + length + ",) to match the " + layer + " units of the weight matrix");
        }
        return toFloats(source, name, array);
    }

    private static float[] toFloats(String source, String name, NpyArray array) {
        return array.toFloats((i, value, rounded) -> {
            if (!Float.isFinite(rounded)) {
                String what = Double.isFinite(value) ? value + ", which overflows float32" : String.valueOf(value);
                throw new ModelFormatException(source + ": " + name + " holds " + what + " at flat index " + i
                        + "; every parameter must be finite");
            }
        });
    }

    /** The transpose of the row-major {@code rows × cols} matrix m, row-major. */
    static float[] transpose(float[] m, int rows, int cols) {
        float[] t = new float[m.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                t[c * rows + r] = m[r * cols + c];
            }
        }
        return t;
    }

}
