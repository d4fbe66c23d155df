package org.logz.model.rbm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;

class RbmFilesAgreementTest {
    @TempDir
    Path dir;

    /** The native arrays W (N,H), a, b of {@code rbm}. */
    private static List<NpyArray> nativeArrays(Rbm rbm) {
        return List.of(NpyArray.ofFloats("W", new int[] {rbm.visible(), rbm.hidden()}, rbm.weights()),
                NpyArray.ofFloats("a", new int[] {rbm.visible()}, rbm.visibleBias()),
                NpyArray.ofFloats("b", new int[] {rbm.hidden()}, rbm.hiddenBias()));
    }

    /** scikit-learn's components_ (H,N) = Wᵀ, intercept_visible_, intercept_hidden_ of {@code rbm}. */
    private static List<NpyArray> sklearnArrays(Rbm rbm) {
        int n = rbm.visible();
        int h = rbm.hidden();
        float[] w = rbm.weights();
        float[] components = new float[n * h];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < h; j++) {
                components[j * n + i] = w[i * h + j];
            }
        }
        return List.of(NpyArray.ofFloats("components_", new int[] {h, n}, components),
                NpyArray.ofFloats("intercept_visible_", new int[] {n}, rbm.visibleBias()),
                NpyArray.ofFloats("intercept_hidden_", new int[] {h}, rbm.hiddenBias()));
    }

    private Path both(Rbm own, Rbm sklearn) {
        List<NpyArray> arrays = new ArrayList<>(nativeArrays(own));
        arrays.addAll(sklearnArrays(sklearn));
        Path file = dir.resolve("both.npz");
        Npz.write(file, arrays);
        return file;
    }

    private static void assertDisagree(Path file, String what) {
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> RbmFiles.read(file));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("they disagree (" + what + " differ)"), e.getMessage());
    }

    /** A file with both naming conventions describing the same model loads. */
    @Test
    void agreeingNativeAndScikitLearnArraysLoad() {
        Rbm rbm = RandomRbm.create(5, 3, 1.0, 7);
        Rbm read = RbmFiles.read(both(rbm, rbm)).rbm();
        assertArrayEquals(rbm.weights(), read.weights());
        assertArrayEquals(rbm.visibleBias(), read.visibleBias());
        assertArrayEquals(rbm.hiddenBias(), read.hiddenBias());
    }

    /** Weights that differ between the conventions are refused, naming W and components_ᵀ. */
    @Test
    void disagreeingWeightsAreRefused() {
        Rbm rbm = RandomRbm.create(5, 3, 1.0, 7);
        float[] w = rbm.weights();
        w[4] += 1;
        Rbm other = new Rbm(5, 3, w, rbm.visibleBias(), rbm.hiddenBias());
        assertDisagree(both(rbm, other), "W and components_ᵀ");
    }

    /** Biases that differ between the conventions are refused, naming the pair. */
    @Test
    void disagreeingBiasesAreRefused() {
        Rbm rbm = RandomRbm.create(4, 2, 1.0, 3);
        float[] a = rbm.visibleBias();
        a[0] += 0.5f;
        assertDisagree(both(rbm, new Rbm(4, 2, rbm.weights(), a, rbm.hiddenBias())), "a and intercept_visible_");
        float[] b = rbm.hiddenBias();
        b[1] -= 0.5f;
        assertDisagree(both(rbm, new Rbm(4, 2, rbm.weights(), rbm.visibleBias(), b)), "b and intercept_hidden_");
    }

    /** Conventions that describe different shapes are refused. */
    @Test
    void disagreeingShapesAreRefused() {
        assertDisagree(both(RandomRbm.create(4, 2, 1.0, 3), RandomRbm.create(2, 4, 1.0, 3)), "shapes Rbm[4×2] and Rbm[2×4]");
    }

    /** A file with the native arrays and an incomplete scikit-learn set is refused, naming what is missing. */
    @Test
    void incompleteSecondSetIsRefused() {
        Rbm rbm = RandomRbm.create(3, 2, 1.0, 1);
        List<NpyArray> arrays = new ArrayList<>(nativeArrays(rbm));
        arrays.add(sklearnArrays(rbm).get(0));
        Path file = dir.resolve("partial.npz");
        Npz.write(file, arrays);
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> RbmFiles.read(file));
        assertTrue(e.getMessage().contains("missing arrays intercept_visible_, intercept_hidden_"), e.getMessage());
    }

    /** Weights beyond the pre-activation bound are refused as a format error naming the file. */
    @Test
    void parametersBeyondThePreActivationBoundAreAFormatError() {
        Path file = dir.resolve("big.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {1, 1}, new float[] {20_000}),
                NpyArray.ofFloats("a", new int[] {1}, new float[1]), NpyArray.ofFloats("b", new int[] {1}, new float[1])));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> RbmFiles.read(file));
        assertTrue(e.getMessage().startsWith(file + ": visible unit 0's pre-activation"), e.getMessage());
        assertTrue(e.getMessage().contains("16384"), e.getMessage());
    }
}
