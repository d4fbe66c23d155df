package org.logz.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.model.rbm.RbmEnumeration;

class RbmTest {
    @Test
    void rejectsShapeMismatchNamingTheArray() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Rbm(3, 2, new float[5], new float[3], new float[2]));
        assertTrue(e.getMessage().startsWith("W has 5 values, expected 6"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Rbm(3, 2, new float[6], new float[2], new float[2]));
        assertTrue(e.getMessage().startsWith("a has 2 values"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Rbm(3, 2, new float[6], new float[3], new float[3]));
        assertTrue(e.getMessage().startsWith("b has 3 values"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Rbm(0, 2, new float[0], new float[0], new float[2]));
        assertTrue(e.getMessage().contains("at least one"), e.getMessage());
    }

    @Test
    void rejectsNonFiniteValuesWithTheirPosition() {
        float[] w = new float[6];
        w[5] = Float.NaN;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Rbm(3, 2, w, new float[3], new float[2]));
        assertEquals("W[2,1] is NaN; every parameter must be finite", e.getMessage());
        float[] b = {0f, Float.POSITIVE_INFINITY};
        e = assertThrows(IllegalArgumentException.class, () -> new Rbm(3, 2, new float[6], new float[3], b));
        assertEquals("b[1] is Infinity; every parameter must be finite", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BaseRate.of(new float[] {Float.NaN}, "x"));
    }

    @Test
    void isImmutable() {
        float[] w = {1, 2};
        Rbm rbm = new Rbm(1, 2, w, new float[1], new float[2]);
        w[0] = 99;
        rbm.weights()[1] = 99;
        assertEquals(1f, rbm.weight(0, 0));
        assertEquals(2f, rbm.weight(0, 1));
    }

    @Test
    void permutingVisibleUnitsKeepsTheMarginalAndLogZ() {
        Rbm rbm = RandomRbm.create(5, 3, 1.0, 11);
        Rbm permuted = rbm.permuteVisible(new int[] {4, 0, 3, 1, 2});
        float[] x = {1, 0, 1, 1, 0};
        float[] px = {x[4], x[0], x[3], x[1], x[2]};
        assertEquals(rbm.logMarginal(x), permuted.logMarginal(px), 1e-12);
        assertEquals(RbmEnumeration.logZ(rbm), RbmEnumeration.logZ(permuted), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> rbm.permuteVisible(new int[] {0, 0, 1, 2, 3}));
        assertThrows(IllegalArgumentException.class, () -> rbm.permuteVisible(new int[] {0, 1}));
    }

    @Test
    void baseRateNormalizerAndSmoothing() {
        BaseRate uniform = BaseRate.uniform(10);
        assertEquals(10 * Math.log(2), uniform.logNormalizer(), 1e-12);
        BaseRate fromData = BaseRate.fromCounts(new long[] {0, 10, 5}, 10, "test");
        float[] a0 = fromData.logOdds();
        assertEquals(Math.log(1.0 / 11), a0[0], 1e-6);
        assertEquals(Math.log(11.0), a0[1], 1e-6);
        assertEquals(0.0, a0[2], 1e-7);
    }
}
