package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;

/**
 * The resampling contract (DESIGN §3): every scheme, ARM-anticipate's split and the reseeding indices
 * draw the same indices, bit for bit, as the host code of engine-api. On the reference backend, which
 * implements the same specification apart, this is the check that two implementations agree; on the
 * others it needs no reference run, since host code and reference agree there.
 */
public abstract class ResamplingContract extends BackendTest {
    @Test
    void resamplingMatchesTheHostCodeExactly() {
        for (ResamplingScheme scheme : ResamplingScheme.values()) {
            for (int[] sizes : new int[][] {{1, 1}, {7, 3}, {300, 300}, {613, 257}}) {
                int count = sizes[0];
                int offspring = sizes[1];
                double[] lw = randomLogWeights(count, count);
                lw[count / 2] = Double.NEGATIVE_INFINITY;
                if (count == 1) {
                    lw[0] = 0.5;
                }
                int[] expected = new int[offspring];
                Resampling.ancestors(scheme, lw, count, offspring, 31, 4, expected);
                assertArrayEquals(expected, ancestors(backend, scheme, lw, count, offspring), scheme + " " + count + "→" + offspring);
            }
        }
    }

    /**
     * Shapes the small sizes above miss: more than 256 scan chunks (a warp of a scan takes a second group of 32), long
     * runs of zero weights between the ones that draw (a merge walks many windows), far more draws than weights
     * (long runs of copies of one particle), and far fewer (a warp's draws or copies spread too wide to merge).
     */
    @Test
    void resamplingMatchesTheHostCodeAtLargeAndSparseShapes() {
        double[] large = randomLogWeights(70_000, 9);
        double[] sparse = randomLogWeights(5000, 10);
        for (int i = 0; i < sparse.length; i++) {
            if (i % 97 != 3) {
                sparse[i] = Double.NEGATIVE_INFINITY;
            }
        }
        double[] spread = randomLogWeights(20_000, 12);
        for (int i = 0; i < spread.length; i++) {
            if (i % 20 != 0) {
                spread[i] = Double.NEGATIVE_INFINITY;
            }
        }
        double[] few = randomLogWeights(40, 11);
        for (ResamplingScheme scheme : ResamplingScheme.values()) {
            for (Object[] c : new Object[][] {{large, 70_000}, {sparse, 5000}, {few, 4000}, {large, 100},
                {spread, 1000}}) {
                double[] lw = (double[]) c[0];
                int offspring = (Integer) c[1];
                int[] expected = new int[offspring];
                Resampling.ancestors(scheme, lw, lw.length, offspring, 31, 4, expected);
                assertArrayEquals(expected, ancestors(backend, scheme, lw, lw.length, offspring),
                        scheme + " " + lw.length + "→" + offspring);
            }
        }
    }

    private static int[] ancestors(ParticleBackend on, ResamplingScheme scheme, double[] lw, int count, int offspring) {
        try (ParticleVector v = on.vector(count + 3); IndexVector out = on.indices(offspring + 2)) {
            on.upload(lw, v);
            on.resampler(scheme).ancestors(v, count, offspring, 31, 4, out);
            return on.download(out, offspring);
        }
    }

    @Test
    void resamplingRejectsNonFiniteAndAllZeroWeights() {
        try (ParticleVector v = backend.vector(3); IndexVector out = backend.indices(3)) {
            backend.upload(new double[] {0, Double.NaN, 1}, v);
            assertThrows(IllegalArgumentException.class,
                    () -> backend.resampler(ResamplingScheme.RESIDUAL).ancestors(v, 3, 3, 1, 1, out));
            backend.fill(v, 0, 3, Double.NEGATIVE_INFINITY);
            assertThrows(IllegalArgumentException.class,
                    () -> backend.resampler(ResamplingScheme.SYSTEMATIC).ancestors(v, 3, 3, 1, 1, out));
        }
    }

    @Test
    void splitMatchesTheHostCode() {
        int count = 301;
        double[] lw = randomLogWeights(count, 5);
        double[] carried = randomLogWeights(count, 6);
        int capacity = Resampling.splitCapacity(count, count);
        int[] idx = new int[capacity];
        double[] out = new double[capacity];
        int expected = Resampling.split(lw, count, count, carried, idx, out);
        try (ParticleVector w = backend.vector(count); ParticleVector c = backend.vector(count);
             IndexVector gotIdx = backend.indices(capacity); ParticleVector gotOut = backend.vector(capacity)) {
            backend.upload(lw, w);
            backend.upload(carried, c);
            assertEquals(expected, backend.split(w, count, count, c, gotIdx, gotOut), backend.name());
            assertArrayEquals(java.util.Arrays.copyOf(idx, expected), backend.download(gotIdx, expected), backend.name());
            double[] got = backend.download(gotOut, expected);
            for (int k = 0; k < expected; k++) {
                assertClose(out[k], got[k], backend.name() + ": carried weight of copy " + k);
            }
        }
    }

    @Test
    void randomIndicesMatchTheHostCode() {
        int[] expected = new int[333];
        Resampling.randomIndices(1797, 333, 8, 12, expected);
        try (IndexVector out = backend.indices(333)) {
            backend.randomIndices(1797, 333, 8, 12, out);
            assertArrayEquals(expected, backend.download(out, 333), backend.name());
        }
    }
}
