package org.logz.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;

class DatasetsTest {
    @TempDir
    Path dir;

    @Test
    void shippedMnistHasItsDocumentedShapeAndMean() {
        BinaryDataset mnist = Datasets.load("mnist");
        assertEquals(10_000, mnist.size());
        assertEquals(784, mnist.dimension());
        long on = 0;
        for (long c : mnist.onCounts()) {
            on += c;
        }
        assertEquals(0.1326, (double) on / (10_000 * 784), 5e-5);
        assertEquals(0, mnist.label(0));
        assertEquals(9, mnist.label(9_999));
        assertEquals(0, mnist.onCounts()[0], "corner pixel is never on");
    }

    @Test
    void shippedDigitsHaveTheirDocumentedShape() {
        BinaryDataset digits = Datasets.load("digits");
        assertEquals(1_797, digits.size());
        assertEquals(64, digits.dimension());
        float[] row = new float[64];
        digits.copyRow(0, row, 0);
        // first sklearn digit, row 2: 0,0,13,15,10,15,5,0 -> on where >= 8
        assertEquals(1f, row[10]);
        assertEquals(0f, row[14]);
        assertEquals(0, digits.label(0));
    }

    @Test
    void denseFilesAreReadAndCheckedForBinaryValues() {
        Path file = dir.resolve("d.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("X", new int[] {2, 3}, new float[] {1, 0, 1, 0, 0, 1})));
        BinaryDataset d = Datasets.load(file.toString());
        assertEquals(2, d.size());
        assertTrue(d.get(0, 2));
        assertEquals(2, d.onCounts()[2]);
        Npz.write(file, List.of(NpyArray.ofFloats("X", new int[] {1, 2}, new float[] {0.5f, 1})));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> Datasets.load(file.toString()));
        assertTrue(e.getMessage().contains("must be binary"), e.getMessage());
        assertThrows(ModelFormatException.class, () -> Datasets.load(dir.resolve("none.npz").toString()));
    }

    @Test
    void baseRateAndVariancesFollowTheMeans() {
        BinaryDataset d = BinaryDataset.of("t", 4, 2, new float[] {1, 0, 1, 0, 1, 1, 0, 0}, null);
        assertEquals(Math.log(4.0 / 2.0), d.baseRate().logOdds()[0], 1e-6);
        assertEquals(0.1875, d.variances()[0], 1e-12);
        assertEquals(0.1875, d.variances()[1], 1e-12);
    }
}
