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
import org.logz.backend.Tempering;
import org.logz.backend.TemperingSteps;
import org.logz.base.ProgressListener;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.ising.Ising;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.TemperedRbm;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;

/**
 * The tempering part of the backend contract: {@code temper} and {@code linearLevels} of
 * {@link org.logz.backend.ParticleBackend}, and {@code levels} and per-particle Gibbs sweeps of
 * {@link RbmOps}, against {@link TemperingSteps} and the host formulas; then RTS end to end.
 */
public abstract class TemperingContract extends BackendTest {
    /** Uniforms in [lo, hi) from Philox stream 80; shared with the host-only check of {@code TemperingSteps} in testkit's tests. */
    static double[] uniforms(int count, double lo, double hi, long seed) {
        double[] v = new double[count];
        int[] words = new int[4];
        for (int i = 0; i < count; i++) {
            Philox.block(seed, i, 0, 0, 80, words);
            v[i] = lo + (hi - lo) * Philox.toUniformDouble(words[0], words[1]);
        }
        return v;
    }

    /**
     * 1100 chains in 3 groups: 6 blocks of {@link TemperingSteps#BLOCK_MEMBERS} members per group, the last one
     * partial. Rows 384 to 1099 moved alone (a part of the run from block 2) draw the same levels and add the same
     * sums to their blocks, to the bit, as in the whole batch.
     */
    @Test
    void temperMatchesTheHostCode() {
        int count = 1100;
        int levels = 13;
        double[] logF = uniforms(count * levels, -40, 40, 1);
        double[] slope = uniforms(count * levels, -5, 5, 2);
        double[] weight = uniforms(levels, -30, 30, 3);
        double[] ladder = Schedule.linear(levels - 1).betas();
        int[] level = new int[count];
        for (int r = 0; r < count; r++) {
            level[r] = (r * 7) % levels;
        }
        double[] q = new double[count * levels];
        int[] next = new int[count];
        int groups = 3;
        int length = TemperingSteps.statisticsLength(count, levels, groups);
        double[] statistics = new double[length];
        java.util.Arrays.fill(statistics, 0.5);
        for (int r = 0; r < count; r++) {
            next[r] = TemperingSteps.draw(logF, weight, r, r, levels, 9, 4, q);
        }
        TemperingSteps.accumulate(q, slope, level, count, levels, groups, statistics);
        try (ParticleVector f = backend.vector(count * levels + 5); ParticleVector d = backend.vector(count * levels);
             ParticleVector w = backend.vector(levels); ParticleVector b = backend.vector(levels);
             IndexVector at = backend.indices(count); IndexVector to = backend.indices(count + 3);
             ParticleVector betas = backend.vector(count); ParticleVector probabilities = backend.vector(count * levels);
             ParticleVector stats = backend.vector(length)) {
            backend.upload(logF, f);
            backend.upload(slope, d);
            backend.upload(weight, w);
            backend.upload(ladder, b);
            backend.upload(level, at);
            backend.fill(stats, 0, length, 0.5);
            backend.temper(new Tempering(f, d, w, b, at, to, betas, probabilities, stats, groups), count, levels, 9, 4);
            assertArrayEquals(next, backend.download(to, count), backend.name() + ": drawn levels");
            double[] gotBetas = backend.download(betas, count);
            for (int r = 0; r < count; r++) {
                assertEquals(ladder[next[r]], gotBetas[r], backend.name() + ": β of chain " + r);
            }
            double[] gotQ = backend.download(probabilities, count * levels);
            for (int e = 0; e < q.length; e++) {
                assertEquals(q[e], gotQ[e], 1e-12, backend.name() + ": q entry " + e);
            }
            double[] gotStats = backend.download(stats, length);
            for (int e = 0; e < statistics.length; e++) {
                assertEquals(statistics[e], gotStats[e], 1e-9 * (1 + Math.abs(statistics[e])), backend.name() + ": statistic " + e);
            }
            assertAPartMovesAsInTheWholeBatch(backend, f, d, w, b, at, next, gotQ, gotStats, count, levels, groups);
            Tempering tooSmall = new Tempering(f, d, w, b, at, to, betas, probabilities, stats, groups);
            assertThrows(IllegalArgumentException.class, () -> backend.temper(tooSmall, count, levels + 1, 9, 5));
            Tempering tooManyGroups = new Tempering(f, d, w, b, at, to, betas, probabilities, stats, groups + 1);
            assertThrows(IllegalArgumentException.class, () -> backend.temper(tooManyGroups, count, levels, 9, 5));
        }
    }

    private static void assertAPartMovesAsInTheWholeBatch(ParticleBackend on, ParticleVector f, ParticleVector d,
                                                          ParticleVector w, ParticleVector b, IndexVector at, int[] next,
                                                          double[] q, double[] statistics, int count, int levels,
                                                          int groups) {
        int first = 2 * TemperingSteps.BLOCK_MEMBERS * groups;
        int rows = count - first;
        int width = TemperingSteps.SUMS * levels * groups;
        try (ParticleVector pf = on.vector(rows * levels); ParticleVector pd = on.vector(rows * levels);
             IndexVector pat = on.indices(rows); IndexVector to = on.indices(rows); ParticleVector betas = on.vector(rows);
             ParticleVector probabilities = on.vector(rows * levels);
             ParticleVector stats = on.vector(TemperingSteps.statisticsLength(rows, levels, groups))) {
            on.upload(java.util.Arrays.copyOfRange(on.download(f, count * levels), first * levels, count * levels), pf);
            on.upload(java.util.Arrays.copyOfRange(on.download(d, count * levels), first * levels, count * levels), pd);
            on.upload(java.util.Arrays.copyOfRange(on.download(at, count), first, count), pat);
            on.fill(stats, 0, TemperingSteps.statisticsLength(rows, levels, groups), 0.5);
            on.temper(new Tempering(pf, pd, w, b, pat, to, betas, probabilities, stats, groups, first), rows, levels, 9, 4);
            assertArrayEquals(java.util.Arrays.copyOfRange(next, first, count), on.download(to, rows),
                    on.name() + ": levels drawn by the part");
            assertArrayEquals(java.util.Arrays.copyOfRange(q, first * levels, count * levels),
                    on.download(probabilities, rows * levels), on.name() + ": q of the part");
            assertArrayEquals(java.util.Arrays.copyOfRange(statistics, 2 * width, statistics.length),
                    on.download(stats, statistics.length - 2 * width), on.name() + ": the part's blocks");
            assertThrows(IllegalArgumentException.class, () -> new Tempering(pf, pd, w, b, pat, to, betas, probabilities,
                    stats, groups, first + groups), "a part that starts inside a block");
        }
    }

    @Test
    void isingLevelsAreLinearInBeta() {
        Ising model = new Ising(6);
        int count = 37;
        int levels = 9;
        double[] ladder = Schedule.sigmoid(levels - 1, 4).betas();
        try (TemperedKernel ising = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(40, 36);
             ParticleVector b = backend.vector(levels); ParticleVector f = backend.vector(count * levels);
             ParticleVector d = backend.vector(count * levels)) {
            ising.sampleBase(x, count, 4, 0);
            backend.upload(ladder, b);
            ising.levels(x, count, b, levels, f, d);
            float[] states = backend.download(x, count);
            double[] logF = backend.download(f, count * levels);
            double[] slope = backend.download(d, count * levels);
            for (int r = 0; r < count; r++) {
                double coupling = model.coupling(states, r * 36);
                for (int k = 0; k < levels; k++) {
                    assertEquals(ladder[k] * coupling, logF[r * levels + k], 1e-12 * (1 + Math.abs(coupling)));
                    assertEquals(coupling, slope[r * levels + k]);
                }
            }
        }
    }

    @Test
    void rbmLevelsMatchTheHostFormula() {
        Rbm rbm = RandomRbm.create(37, 13, 1.0, 111);
        float[] a0 = randomBase(37, 112);
        int count = 67;
        int levels = 11;
        float[] x = randomStates(count, 37, 113);
        double[] ladder = Schedule.linear(levels - 1).betas();
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(70, 37);
             ParticleVector b = backend.vector(levels); ParticleVector f = backend.vector(count * levels);
             ParticleVector d = backend.vector(count * levels)) {
            backend.upload(x, count, m);
            backend.upload(ladder, b);
            ops.levels(m, count, b, levels, f, d);
            double[] logF = backend.download(f, count * levels);
            double[] slope = backend.download(d, count * levels);
            for (int r = 0; r < count; r++) {
                for (int k = 0; k < levels; k++) {
                    assertClose(Reference.logDensity(rbm, a0, ladder[k], x, r), logF[r * levels + k],
                            "log f at level " + k + " row " + r);
                    assertClose(Reference.slope(rbm, a0, ladder[k], x, r), slope[r * levels + k],
                            "slope at level " + k + " row " + r);
                }
            }
        }
    }

    @Test
    void perParticleSweepsLeaveEveryChainsTemperatureInvariant() {
        Rbm rbm = RandomRbm.create(5, 3, 1.5, 121);
        float[] a0 = randomBase(5, 122);
        int count = 40_001;
        double[] temperature = {0.35, 1.0};
        double[] betas = new double[count];
        for (int r = 0; r < count; r++) {
            betas[r] = temperature[r % 2];
        }
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(count, 5);
             ParticleVector b = backend.vector(count)) {
            backend.upload(betas, b);
            ops.sampleBase(m, count, 13, 0);
            ops.transition(m, count, Betas.of(b), 12, 13, 1);
            float[] all = backend.download(m, count);
            for (int g = 0; g < 2; g++) {
                int rows = (count - g + 1) / 2;
                float[] group = new float[rows * 5];
                for (int r = g, at = 0; r < count; r += 2, at++) {
                    System.arraycopy(all, r * 5, group, at * 5, 5);
                }
                double[] chi = Reference.chiSquare(group, rows, 5, 5,
                        Reference.temperedProbabilities(rbm, a0, temperature[g]));
                assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]),
                        "β=" + temperature[g] + ": chi2 " + chi[0] + " with " + chi[1] + " df");
            }
        }
    }

    @Test
    void temperedSamplingOnASmallRbmLandsOnTheExactValue() {
        Rbm rbm = RandomRbm.create(12, 7, 1.0, 131);
        double exact = RbmEnumeration.logZ(rbm);
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, BaseRate.uniform(12)))) {
            TemperedResult r = new TemperedSampling(new TemperedSampling.Settings(50, Schedule.linear(29), null, 20, 4,
                    400, 10, 2000, 3)).run(path, ProgressListener.NONE);
            assertEquals(backend.name(), r.backend());
            for (LevelEstimate e : r.estimates()) {
                Accuracy.assertLands(backend.name() + ": tempered sampling on a 12×7 RBM, " + e.method(), e.logZ(), e.stdErr(),
                        exact, 0.1, 0.1);
            }
        }
    }

    @Test
    void temperedSamplingIsThreadCountIndependent() {
        Rbm rbm = RandomRbm.create(9, 5, 1.0, 141);
        TemperedResult[] runs = new TemperedResult[2];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = createBackend(threads);
                 TemperedPath path = new TemperedPath(b, new TemperedRbm(rbm, BaseRate.uniform(9)))) {
                runs[threads - 1] = new TemperedSampling(new TemperedSampling.Settings(70, Schedule.linear(12), null, 10, 2,
                        40, 4, 500, 7)).run(path, ProgressListener.NONE);
            }
        }
        for (int e = 0; e < runs[0].estimates().size(); e++) {
            assertArrayEquals(runs[0].estimates().get(e).curve(), runs[1].estimates().get(e).curve(),
                    runs[0].estimates().get(e).method().toString());
        }
        assertArrayEquals(runs[0].occupancy(), runs[1].occupancy());
    }
}
