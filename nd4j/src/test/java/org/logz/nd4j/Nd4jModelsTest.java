package org.logz.nd4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.api.Logz;
import org.logz.base.UserException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** ND4J arrays as DL4J holds them give the bits of the same model from float arrays, and bad shapes one line. */
class Nd4jModelsTest {
    private static float[][] weights() {
        float[][] w = new float[12][5];
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 5; j++) {
                w[i][j] = (float) Math.sin(1.7 * i + 0.9 * j) * 1.5f;
            }
        }
        return w;
    }

    private static float[] bias(int n, double phase) {
        float[] b = new float[n];
        for (int i = 0; i < n; i++) {
            b[i] = (float) (0.4 * Math.cos(phase + i));
        }
        return b;
    }

    @Test
    void ndArraysOfAnyTypeAndShapeGiveTheBitsOfFloatArrays() {
        float[][] w = weights();
        float[] a = bias(12, 0.3);
        float[] b = bias(5, 1.1);
        double byArrays = Logz.rbm(w, a, b).baseRate("visible-bias").raise().chains(64).steps(100).seed(9).threads(1)
                .run().logZ();
        double byNd4j = Nd4jModels.rbm(Nd4j.createFromArray(w).castTo(DataType.DOUBLE),
                Nd4j.createFromArray(a).reshape(1, 12), Nd4j.createFromArray(b)).baseRate("visible-bias").raise()
                .chains(64).steps(100).seed(9).run().logZ();
        assertEquals(Double.doubleToLongBits(byArrays), Double.doubleToLongBits(byNd4j));
    }

    @Test
    void badShapesAreOneLine() {
        assertMessage("W must be a visible × hidden matrix", () -> Nd4jModels.rbm(Nd4j.create(3), Nd4j.create(3),
                Nd4j.create(2)));
        assertMessage("b must be a vector", () -> Nd4jModels.rbm(Nd4j.create(3, 2), Nd4j.create(3), Nd4j.create(2, 2)));
    }

    private static void assertMessage(String fragment, Runnable call) {
        UserException e = assertThrows(UserException.class, call::run);
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
