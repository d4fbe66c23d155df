package org.logz.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class PhiloxTest {
    /** Random123 kat_vectors for philox4x32_10 (DESIGN §3), from philox-kat.txt. */
    @Test
    void knownAnswerVectors() {
        List<PhiloxKnownAnswers.Vector> vectors = PhiloxKnownAnswers.all();
        assertEquals(3, vectors.size(), "the three vectors of Random123's kat_vectors");
        for (PhiloxKnownAnswers.Vector v : vectors) {
            int[] c = v.counter();
            int[] out = new int[4];
            Philox.block(c[0], c[1], c[2], c[3], v.k0(), v.k1(), out);
            assertArrayEquals(v.expected(), out);
            long seed = (v.k0() & 0xFFFFFFFFL) | ((long) v.k1() << 32);
            Philox.block(seed, c[0], c[1], c[2], c[3], out);
            assertArrayEquals(v.expected(), out, "64-bit key: low word k0, high word k1");
        }
    }

    @Test
    void uniformsLieStrictlyInsideTheUnitInterval() {
        assertEquals(0x1.0p-24f, Philox.toUniform(0));
        assertEquals(1f - 0x1.0p-24f, Philox.toUniform(-1));
        assertTrue(Philox.toUniform(-1) < 1f);
        assertEquals(0.5f - 0x1.0p-24f, Philox.toUniform(0x7FFFFFFF));
        assertEquals(0.5f + 0x1.0p-24f, Philox.toUniform(0x80000000));
    }

    @Test
    void uniformsHaveTheRightMeanAndVariance() {
        int[] out = new int[4];
        double sum = 0;
        double sumSq = 0;
        int n = 400_000;
        for (int i = 0; i < n / 4; i++) {
            Philox.block(42L, i, 0, 0, StreamTag.HIDDEN, out);
            for (int w : out) {
                double u = Philox.toUniform(w);
                sum += u;
                sumSq += u * u;
            }
        }
        double mean = sum / n;
        double var = sumSq / n - mean * mean;
        // sd of the mean is sqrt(1/12/n) ≈ 4.6e-4; 5 sd
        assertEquals(0.5, mean, 2.3e-3);
        assertEquals(1.0 / 12, var, 2e-3);
    }

    @Test
    void derivedKeysDifferFromTheSeedAndEachOther() {
        assertEquals(7L, Philox.replicateSeed(7L, 0));
        long r1 = Philox.replicateSeed(7L, 1);
        long r2 = Philox.replicateSeed(7L, 2);
        assertNotEquals(7L, r1);
        assertNotEquals(r1, r2);
        assertNotEquals(Philox.derive(7L, StreamTag.REVERSE, 0), Philox.derive(7L, StreamTag.REPLICATE, 0));
    }
}
