package org.logz.model.gpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.base.UserException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.GpClassification;

class GpcFilesTest {
    @TempDir
    Path dir;

    /** The shipped sets: 365 and 767 cases, pixels in [-1, 1], the paper's hyperparameters. */
    @Test
    void shippedSets() {
        GpClassification digits = GpcFiles.read("digits35", OptionalDouble.empty(), OptionalDouble.empty());
        assertEquals(365, digits.size());
        GpClassification mnist = GpcFiles.read("mnist35", OptionalDouble.empty(), OptionalDouble.empty());
        assertEquals(767, mnist.size());
        // K_ii = σ² = exp(2 · 5.1)
        assertEquals(Math.exp(10.2), mnist.k(0, 0), 1e-9 * Math.exp(10.2));
        GpClassification weak = GpcFiles.read("digits35", OptionalDouble.of(1), OptionalDouble.of(0));
        assertEquals(1, weak.k(3, 3), 1e-12);
    }

    /** 0/1 labels become ±1; X with its own hyperparameters; K given directly. */
    @Test
    void filesWithXOrK() {
        Path x = dir.resolve("x.npz");
        Npz.write(x, List.of(NpyArray.ofDoubles("X", new int[] {3, 1}, new double[] {0, 1, 3}),
                NpyArray.ofDoubles("y", new int[] {3}, new double[] {0, 1, 1}),
                NpyArray.ofDoubles("log_ell", new int[] {}, new double[] {0}),
                NpyArray.ofDoubles("log_sigma", new int[] {}, new double[] {0})));
        GpClassification m = GpcFiles.read(x.toString(), OptionalDouble.empty(), OptionalDouble.empty());
        assertArrayEquals(new int[] {-1, 1, 1}, m.labels());
        assertEquals(Math.exp(-0.5), m.k(0, 1), 1e-15);
        Path k = dir.resolve("k.npz");
        Npz.write(k, List.of(NpyArray.ofDoubles("K", new int[] {2, 2}, new double[] {2, 1, 1, 2}),
                NpyArray.ofDoubles("y", new int[] {2}, new double[] {1, -1})));
        assertEquals(1, GpcFiles.read(k.toString(), OptionalDouble.empty(), OptionalDouble.empty()).k(1, 0));
    }

    /** Bad problems are user errors naming what is wrong. */
    @Test
    void badProblemsAreRefused() {
        assertRefused(List.of(NpyArray.ofDoubles("X", new int[] {2, 1}, new double[] {0, 1})), "no labels");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {2}, new double[] {1, 2}),
                NpyArray.ofDoubles("X", new int[] {2, 1}, new double[] {0, 1})), "y[1] is 2.0");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {2}, new double[] {1, -1}),
                NpyArray.ofDoubles("X", new int[] {2, 1}, new double[] {0, Double.NaN})), "is NaN");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {2}, new double[] {1, -1}),
                NpyArray.ofDoubles("K", new int[] {2, 2}, new double[] {1, 2, 0, 1})), "not symmetric");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {2}, new double[] {1, -1}),
                NpyArray.ofDoubles("K", new int[] {2, 2}, new double[] {-3, 0, 0, 1})), "not positive definite");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {0}, new double[] {}),
                NpyArray.ofDoubles("X", new int[] {0, 1}, new double[] {})), "n = 0");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {2}, new double[] {1, -1}),
                NpyArray.ofDoubles("X", new int[] {3, 1}, new double[] {0, 1, 2})), "expected (2, d)");
        assertRefused(List.of(NpyArray.ofDoubles("y", new int[] {1}, new double[] {1}),
                NpyArray.ofDoubles("K", new int[] {1, 1}, new double[] {1e20})), "lost to float64 rounding");
        assertThrows(UserException.class, () -> GpcFiles.read("digits35", OptionalDouble.empty(), OptionalDouble.of(200)));
        UserException e = assertThrows(UserException.class,
                () -> GpcFiles.read("nothing-here", OptionalDouble.empty(), OptionalDouble.empty()));
        assertTrue(e.getMessage().contains("neither a shipped set"), e.getMessage());
    }

    private void assertRefused(List<NpyArray> arrays, String fragment) {
        Path file = dir.resolve("bad.npz");
        Npz.write(file, arrays);
        UserException e = assertThrows(UserException.class,
                () -> GpcFiles.read(file.toString(), OptionalDouble.empty(), OptionalDouble.empty()));
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
    }
}
