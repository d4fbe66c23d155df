package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightSummary;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ProgressListener;
import org.logz.exact.RbmEnumeration;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.TemperedRbm;
import org.logz.numeric.LogSpace;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

/**
 * The backend contract (DESIGN §2, §7): every backend module extends this class. Sizes are odd and
 * counts stop short of capacity so that partial tiles and blocks are exercised; deterministic
 * operations are compared with float64 host formulas within {@code atol + |ref|·rtol}.
 */
public abstract class ParticleBackendContract extends BackendTest {
    @Test
    void matricesStartAtZeroAndRoundTrip() {
        try (ParticleMatrix m = backend.matrix(70, 37)) {
            assertEquals(70, m.rows());
            assertEquals(37, m.cols());
            float[] zeros = backend.download(m, 70);
            for (float v : zeros) {
                assertEquals(0f, v);
            }
            float[] x = randomStates(67, 37, 1);
            backend.upload(x, 67, m);
            assertArrayEquals(x, backend.download(m, 67));
            float[] all = backend.download(m, 70);
            for (int k = 67 * 37; k < all.length; k++) {
                assertEquals(0f, all[k], "rows past the upload are untouched");
            }
            assertThrows(IllegalArgumentException.class, () -> backend.upload(x, 71, m));
            assertThrows(IllegalArgumentException.class, () -> backend.download(m, 71));
        }
    }

    @Test
    void vectorsFillUploadAndDownload() {
        try (ParticleVector v = backend.vector(131)) {
            assertEquals(131, v.length());
            backend.fill(v, 0, 100, 2.5);
            double[] d = backend.download(v, 131);
            assertEquals(2.5, d[99]);
            assertEquals(0.0, d[100]);
            backend.upload(new double[] {1, -2, 3}, v);
            assertArrayEquals(new double[] {1, -2, 3, 2.5}, backend.download(v, 4));
        }
    }

    @Test
    void vectorArithmeticMatchesTheHostToTheBit() {
        int n = 131;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int k = 0; k < n; k++) {
            x[k] = Math.sin(k) * 1e3;
            y[k] = Math.cos(k) * 7 - 300;
        }
        try (ParticleVector xv = backend.vector(n); ParticleVector yv = backend.vector(n)) {
            backend.upload(x, xv);
            backend.upload(y, yv);
            WeightSummary trial = backend.summarize(yv, xv, 0.013, 3, 120);
            double[] shifted = new double[120];
            for (int k = 0; k < 120; k++) {
                shifted[k] = y[3 + k] + 0.013 * x[3 + k];
            }
            assertEquals(LogSpace.logSumExp(shifted), trial.logSum(), 1e-12 * Math.abs(trial.logSum()));
            assertArrayEquals(y, backend.download(yv, n), "a trial summary modifies nothing");
            backend.axpy(0.3, xv, yv, 5, 100);
            backend.scale(xv, 7, 50, -2.5);
            double[] gotY = backend.download(yv, n);
            double[] gotX = backend.download(xv, n);
            for (int k = 0; k < n; k++) {
                assertEquals(k >= 5 && k < 105 ? y[k] + 0.3 * x[k] : y[k], gotY[k], "axpy entry " + k);
                assertEquals(k >= 7 && k < 57 ? x[k] * -2.5 : x[k], gotX[k], "scale entry " + k);
            }
            assertThrows(IllegalArgumentException.class, () -> backend.axpy(Double.NaN, xv, yv, 0, 3));
            assertThrows(IllegalArgumentException.class, () -> backend.scale(xv, 100, 40, 1.0));
        }
    }

    @Test
    void summariesMatchTheHostAtExtremes() {
        double[] lw = new double[201];
        for (int i = 0; i < lw.length; i++) {
            lw[i] = 700.0 - 3.1 * i;
        }
        lw[5] = Double.NEGATIVE_INFINITY;
        try (ParticleVector v = backend.vector(lw.length)) {
            backend.upload(lw, v);
            WeightSummary s = backend.summarize(v, lw.length);
            assertEquals(LogSpace.logSumExp(lw), s.logSum(), 1e-12 * 700);
            assertEquals(LogSpace.ess(lw, lw.length), s.ess(), 1e-9);
            backend.fill(v, 0, lw.length, Double.NEGATIVE_INFINITY);
            assertTrue(backend.summarize(v, lw.length).degenerate());
            backend.fill(v, 0, lw.length, -1234.5);
            assertEquals(lw.length, backend.summarize(v, lw.length).ess(), 1e-9);
        }
    }

    @Test
    void handlesOfAnotherBackendAreRejected() {
        try (ParticleBackend other = createBackend(1); ParticleMatrix m = other.matrix(3, 3);
             ParticleVector v = other.vector(3)) {
            assertThrows(IllegalArgumentException.class, () -> backend.download(m, 3));
            assertThrows(IllegalArgumentException.class, () -> backend.fill(v, 0, 3, 0));
        }
    }

    @Test
    void closeIsIdempotentAndClosedHandlesFailClearly() {
        ParticleMatrix m = backend.matrix(5, 5);
        m.close();
        m.close();
        assertThrows(IllegalStateException.class, () -> backend.download(m, 1));
        ParticleVector v = backend.vector(5);
        v.close();
        v.close();
        assertThrows(IllegalStateException.class, () -> backend.download(v, 1));
        TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(RandomRbm.create(3, 2, 1, 1), BaseRate.uniform(3)));
        ops.close();
        ops.close();
    }

    @Test
    void logDensityMatchesTheHostFormula() {
        Rbm rbm = RandomRbm.create(37, 13, 1.0, 21);
        float[] a0 = randomBase(37, 22);
        float[] x = randomStates(67, 37, 23);
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(70, 37);
             ParticleVector out = backend.vector(70)) {
            backend.upload(x, 67, m);
            for (double beta : new double[] {0.0, 0.3, 1.0}) {
                backend.fill(out, 0, 70, -7.0);
                ops.logDensity(m, 67, beta, out);
                double[] got = backend.download(out, 70);
                for (int r = 0; r < 67; r++) {
                    assertClose(Reference.logDensity(rbm, a0, beta, x, r), got[r], "log f_" + beta + " row " + r);
                }
                assertEquals(-7.0, got[67], "entries past count are untouched");
            }
        }
    }

    @Test
    void annealStepWithoutTransitionAddsTheLogDensityRatio() {
        Rbm rbm = RandomRbm.create(29, 11, 1.5, 31);
        float[] a0 = randomBase(29, 32);
        float[] x = randomStates(65, 29, 33);
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(65, 29);
             ParticleVector lw = backend.vector(66)) {
            backend.upload(x, 65, m);
            backend.fill(lw, 0, 66, 1.0);
            ops.anneal(m, 65, 0.25, 0.75, lw, 0, 9, 1);
            double[] got = backend.download(lw, 66);
            for (int r = 0; r < 65; r++) {
                double expected = 1.0 + Reference.logDensity(rbm, a0, 0.75, x, r) - Reference.logDensity(rbm, a0, 0.25, x, r);
                assertClose(expected, got[r], "row " + r);
            }
            assertEquals(1.0, got[65]);
            assertArrayEquals(x, backend.download(m, 65), "no transition: states unchanged");
        }
    }

    @Test
    void baseSamplesHaveTheBaseRateMeans() {
        float[] a0 = {-3f, -1f, 0f, 0.5f, 2f, 4f, -0.2f};
        int count = 4097;
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(RandomRbm.create(7, 3, 1, 1), BaseRate.of(a0, "test")));
             ParticleMatrix m = backend.matrix(count, 7)) {
            ops.sampleBase(m, count, 5, 0);
            float[] x = backend.download(m, count);
            for (int i = 0; i < 7; i++) {
                double p = LogSpace.sigmoid(a0[i]);
                double mean = 0;
                for (int r = 0; r < count; r++) {
                    mean += x[r * 7 + i];
                }
                mean /= count;
                double sd = Math.sqrt(p * (1 - p) / count);
                assertEquals(p, mean, 5 * sd + 1e-9, "unit " + i);
            }
        }
    }

    @Test
    void gibbsSweepsLeaveTheTemperedDistributionInvariant() {
        Rbm rbm = RandomRbm.create(5, 3, 1.5, 41);
        float[] a0 = randomBase(5, 42);
        int count = 20_001;
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(count, 5)) {
            for (double beta : new double[] {1.0, 0.6}) {
                ops.sampleBase(m, count, 11, 0);
                ops.transition(m, count, Betas.of(beta), 30, 11, 1);
                double[] chi = Reference.chiSquare(backend.download(m, count), count, 5, 5,
                        Reference.temperedProbabilities(rbm, a0, beta));
                assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]),
                        "β=" + beta + ": chi2 " + chi[0] + " with " + chi[1] + " df");
            }
        }
    }

    @Test
    void annealedSweepsAreDeterministicAndThreadCountIndependent() {
        Rbm rbm = RandomRbm.create(23, 9, 1.0, 51);
        float[] a0 = randomBase(23, 52);
        float[][] states = new float[2][];
        double[][] weights = new double[2][];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = createBackend(threads); TemperedKernel ops = Kernels.tempered(b, new TemperedRbm(rbm, BaseRate.of(a0, "t")));
                 ParticleMatrix m = b.matrix(150, 23); ParticleVector lw = b.vector(150)) {
                ops.sampleBase(m, 150, 77, 0);
                for (int k = 1; k <= 5; k++) {
                    ops.anneal(m, 150, (k - 1) / 5.0, k / 5.0, lw, 1, 77, k);
                }
                ops.transition(m, 150, Betas.of(1.0), 2, 77, 6);
                states[threads - 1] = b.download(m, 150);
                weights[threads - 1] = b.download(lw, 150);
            }
        }
        assertArrayEquals(states[0], states[1]);
        assertArrayEquals(weights[0], weights[1]);
        for (float v : states[0]) {
            assertTrue(v == 0f || v == 1f, "states stay binary");
        }
    }

    @Test
    void aisOnASmallRbmLandsOnTheExactValue() {
        Rbm rbm = RandomRbm.create(12, 7, 1.0, 61);
        double exact = RbmEnumeration.logZ(rbm);
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, BaseRate.uniform(12)))) {
            AnnealingResult r = new AnnealedImportanceSampling(
                    new AnnealedImportanceSampling.Settings(300, Schedule.linear(200), 3)).forward(path, ProgressListener.NONE);
            assertTrue(Math.abs(r.logZ() - exact) <= Math.max(4 * r.stdErr(), 0.1),
                    "AIS " + r.logZ() + " ± " + r.stdErr() + " vs exact " + exact);
            assertTrue(r.stdErr() < 0.1, "standard error " + r.stdErr());
            assertEquals(backend.name(), r.backend());
        }
    }
    private static double[] randomLogWeights(int count, long seed) {
        double[] lw = new double[count];
        int[] words = new int[4];
        for (int i = 0; i < count; i++) {
            Philox.block(seed, i, 0, 0, 78, words);
            lw[i] = 6.0 * Philox.toUniform(words[0]) - 3.0;
        }
        return lw;
    }

    @Test
    void resamplingMatchesTheHostReferenceExactly() {
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
                try (ParticleVector v = backend.vector(count + 3); IndexVector out = backend.indices(offspring + 2)) {
                    backend.upload(lw, v);
                    backend.resampler(scheme).ancestors(v, count, offspring, 31, 4, out);
                    assertArrayEquals(expected, backend.download(out, offspring), scheme + " " + count + "→" + offspring);
                }
            }
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
    void splitMatchesTheHostReference() {
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
            assertEquals(expected, backend.split(w, count, count, c, gotIdx, gotOut));
            assertArrayEquals(java.util.Arrays.copyOf(idx, expected), backend.download(gotIdx, expected));
            double[] got = backend.download(gotOut, expected);
            for (int k = 0; k < expected; k++) {
                assertClose(out[k], got[k], "carried weight of copy " + k);
            }
        }
    }

    @Test
    void rowAndVectorMovesMatchTheirDefinition() {
        int cols = 37;
        float[] x = randomStates(131, cols, 91);
        int[] idx = {130, 0, 64, 63, 64, 7, 129};
        try (ParticleMatrix src = backend.matrix(131, cols); ParticleMatrix dst = backend.matrix(140, cols);
             IndexVector index = backend.indices(idx.length); ParticleVector v = backend.vector(131);
             ParticleVector w = backend.vector(20); IndexVector lineage = backend.indices(131);
             IndexVector lineageOut = backend.indices(10)) {
            backend.upload(x, 131, src);
            backend.upload(idx, index);
            backend.gatherRows(src, index, idx.length, dst, 65);
            float[] got = backend.download(dst, 140);
            for (int k = 0; k < idx.length; k++) {
                for (int c = 0; c < cols; c++) {
                    assertEquals(x[idx[k] * cols + c], got[(65 + k) * cols + c], "gathered row " + k);
                }
            }
            assertEquals(0f, got[64 * cols], "rows before the destination are untouched");
            backend.copyRows(src, 60, src, 3, 9);
            float[] copied = backend.download(src, 131);
            for (int k = 0; k < 9 * cols; k++) {
                assertEquals(x[60 * cols + k], copied[3 * cols + k]);
            }
            assertThrows(IllegalArgumentException.class, () -> backend.copyRows(src, 0, src, 5, 10));
            backend.zeroColumns(dst, 66, 2, 30);
            float[] zeroed = backend.download(dst, 140);
            for (int c = 0; c < cols; c++) {
                float expected = c >= 30 ? 0f : x[idx[1] * cols + c];
                assertEquals(expected, zeroed[66 * cols + c], "column " + c);
            }
            double[] values = randomLogWeights(131, 3);
            backend.upload(values, v);
            backend.gather(v, index, idx.length, w, 11);
            double[] gathered = backend.download(w, 20);
            for (int k = 0; k < idx.length; k++) {
                assertEquals(values[idx[k]], gathered[11 + k]);
            }
            backend.copy(v, 100, w, 0, 5);
            assertEquals(values[104], backend.download(w, 5)[4]);
            backend.sequence(lineage, 0, 131, 1000);
            backend.gather(lineage, index, idx.length, lineageOut, 2);
            int[] ids = backend.download(lineageOut, 9);
            for (int k = 0; k < idx.length; k++) {
                assertEquals(1000 + idx[k], ids[2 + k]);
            }
            int[] bad = {131};
            backend.upload(bad, index);
            assertThrows(IllegalArgumentException.class, () -> backend.gatherRows(src, index, 1, dst, 0));
        }
    }

    @Test
    void randomIndicesMatchTheHostReference() {
        int[] expected = new int[333];
        Resampling.randomIndices(1797, 333, 8, 12, expected);
        try (IndexVector out = backend.indices(333)) {
            backend.randomIndices(1797, 333, 8, 12, out);
            assertArrayEquals(expected, backend.download(out, 333));
        }
    }
}
