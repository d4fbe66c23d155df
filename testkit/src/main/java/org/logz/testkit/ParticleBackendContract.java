package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.TemperedRbm;
import org.logz.numeric.LogSpace;

/**
 * The backend core's contract (DESIGN §2, §7): buffers, transfers, row and vector moves, vector
 * arithmetic and summaries, ownership and closing. Every backend module extends this class. Sizes are
 * odd and counts stop short of capacity so that partial tiles and blocks are exercised.
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

    /**
     * Weighted moments of a column of a strided matrix against the definition on the host: a spread of 1e-3
     * around a mean of 1e6 (the variance must not cancel), weights spanning 600 nats, one particle, and
     * degenerate weights giving NaN.
     */
    @Test
    void weightedMomentsMatchTheirDefinition() {
        int count = 203;
        int stride = 3;
        double[] lw = randomLogWeights(count, 17);
        double[] values = new double[count * stride];
        for (int k = 0; k < values.length; k++) {
            values[k] = 1e6 + 1e-3 * Math.sin(1.7 * k);
        }
        for (int k = 0; k < count; k++) {
            lw[k] *= 100;
        }
        double logTotal = LogSpace.logSumExp(lw, count);
        double mean = 0;
        for (int k = 0; k < count; k++) {
            mean += Math.exp(lw[k] - logTotal) * values[1 + k * stride];
        }
        double variance = 0;
        for (int k = 0; k < count; k++) {
            variance += Math.exp(lw[k] - logTotal) * Math.pow(values[1 + k * stride] - mean, 2);
        }
        try (ParticleVector w = backend.vector(count); ParticleVector v = backend.vector(values.length)) {
            backend.upload(lw, w);
            backend.upload(values, v);
            WeightedMoments m = backend.moments(w, v, 1, stride, count);
            assertEquals(mean, m.mean(), 1e-12 * Math.abs(mean), "mean");
            assertEquals(variance, m.variance(), 1e-6 * variance, "variance (a one-pass formula would lose it)");
            WeightedMoments one = backend.moments(w, v, 2, 1, 1);
            assertEquals(values[2], one.mean(), 0.0);
            assertEquals(0.0, one.variance(), 0.0);
            assertArrayEquals(lw, backend.download(w, count), "moments modify nothing");
            backend.fill(w, 0, count, Double.NEGATIVE_INFINITY);
            assertTrue(Double.isNaN(backend.moments(w, v, 0, 1, count).mean()), "all weights zero");
            assertThrows(IllegalArgumentException.class, () -> backend.moments(w, v, stride, stride, count), "past the end");
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
}
