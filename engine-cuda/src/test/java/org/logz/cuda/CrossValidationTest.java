package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.ProgressListener;
import org.logz.cpu.CpuBackend;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.ising.Ising;
import org.logz.model.potts.Potts;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Fixtures;
import org.logz.testkit.Emulator;

/**
 * The CUDA backend (emulated here; the same checks run on a GPU in {@link GpuCrossValidationTest})
 * against the CPU reference with the same seeds: deterministic operations within
 * {@code atol + |ref|·rtol}, sampled states bit for bit for at least 99.9% of units; every estimator
 * on every model to 1e-6 relative in emulation, and AIS, ARM and RTS within their combined standard
 * errors on a GPU.
 */
class CrossValidationTest {
    static final double ATOL = 2e-3;
    static final double RTOL = 1e-5;

    private static ParticleBackend cpu;
    private static ParticleBackend cuda;

    @BeforeAll
    static void open() {
        Emulator.require();
        cpu = CpuBackend.create(2);
        cuda = EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
    }

    @AfterAll
    static void close() {
        if (cuda != null) {
            cpu.close();
            cuda.close();
        }
    }

    static void checkAgainstCpu(ParticleBackend other) {
        deterministicOperationsAgree(other);
        sampledStatesAgreeBitForBit(other);
        aisEstimatesAgree(other);
        armEstimatesAgree(other);
        modelKernelsAgree(other);
        pottsKernelsAgree(other);
        temperedEstimatesAgree(other);
    }

    private static float[] states(int rows, int cols, long seed) {
        float[] x = new float[rows * cols];
        int[] words = new int[4];
        for (int k = 0; k < x.length; k++) {
            Philox.block(seed, k, 0, 0, 57, words);
            x[k] = Philox.toUniform(words[0]) < 0.35f ? 1f : 0f;
        }
        return x;
    }

    /** log f_β and the AIS increment of the same states, over odd sizes. */
    static void deterministicOperationsAgree(ParticleBackend other) {
        Rbm rbm = RandomRbm.create(53, 29, 1.0, 71);
        BaseRate base = BaseRate.of(RandomRbm.create(53, 1, 2.0, 72).visibleBias(), "test");
        int rows = 131;
        float[] x = states(rows, 53, 73);
        double[][] results = new double[2][];
        double[][] increments = new double[2][];
        ParticleBackend[] backends = {cpu, other};
        for (int i = 0; i < 2; i++) {
            ParticleBackend b = backends[i];
            try (TemperedKernel ops = Kernels.tempered(b, new TemperedRbm(rbm, base)); ParticleMatrix m = b.matrix(rows, 53); ParticleVector out = b.vector(rows)) {
                b.upload(x, rows, m);
                ops.logDensity(m, rows, 0.37, out);
                results[i] = b.download(out, rows);
                b.fill(out, 0, rows, 0.0);
                ops.anneal(m, rows, 0.2, 0.9, out, 0, 1, 1);
                increments[i] = b.download(out, rows);
            }
        }
        for (int r = 0; r < rows; r++) {
            assertClose(results[0][r], results[1][r], "log f row " + r);
            assertClose(increments[0][r], increments[1][r], "increment row " + r);
        }
    }

    static void assertClose(double expected, double actual, String what) {
        double tol = ATOL + Math.abs(expected) * RTOL;
        assertTrue(Math.abs(expected - actual) <= tol, what + ": cpu " + expected + ", cuda " + actual);
    }

    /** One sweep of each kind from the same states with the same seed draws the same units, but for rounding flips. */
    static void sampledStatesAgreeBitForBit(ParticleBackend other) {
        Rbm rbm = RandomRbm.create(97, 61, 0.5, 81);
        BaseRate base = BaseRate.of(RandomRbm.create(97, 1, 2.0, 82).visibleBias(), "test");
        int rows = 257;
        float[] start = states(rows, 97, 83);
        float[][][] after = new float[4][2][];
        ParticleBackend[] backends = {cpu, other};
        for (int i = 0; i < 2; i++) {
            ParticleBackend b = backends[i];
            try (TemperedKernel ops = Kernels.tempered(b, new TemperedRbm(rbm, base));
                 SequentialKernel sequential = Kernels.sequential(b, new RbmSequence(rbm, UnitOrder.natural(97), Optional.empty()));
                 ParticleMatrix m = b.matrix(rows, 97); ParticleMatrix g = b.matrix(rows, 61); ParticleVector lw = b.vector(rows)) {
                ParticleState state = new ParticleState(List.of(m, g));
                b.upload(start, rows, m);
                ops.transition(m, rows, Betas.of(0.7), 1, 5, 1);
                after[0][i] = b.download(m, rows);
                b.upload(start, rows, m);
                ops.anneal(m, rows, 0.4, 0.5, lw, 1, 5, 2);
                after[1][i] = b.download(m, rows);
                b.upload(start, rows, m);
                b.zeroColumns(m, 0, rows, 50);
                sequential.refresh(state, 0, rows);
                sequential.move(state, 50, 0, rows, 1, 5, 3);
                after[2][i] = b.download(m, rows);
                ops.sampleBase(m, rows, 5, 4);
                after[3][i] = b.download(m, rows);
            }
        }
        assertTrue(java.util.Arrays.equals(after[3][0], after[3][1]), "base draws involve no product: identical");
        String[] kinds = {"tempered Gibbs sweep", "AIS step", "sequential move"};
        for (int k = 0; k < 3; k++) {
            int same = 0;
            for (int e = 0; e < after[k][0].length; e++) {
                same += after[k][0][e] == after[k][1][e] ? 1 : 0;
            }
            double fraction = (double) same / after[k][0].length;
            System.out.printf(Locale.ROOT, "%s: %d of %d units identical (%.5f)%n", kinds[k], same, after[k][0].length, fraction);
            assertTrue(fraction >= 0.999, kinds[k] + ": only " + fraction + " of units agree");
        }
    }

    /** AIS on both backends with the same seed: estimates within their combined standard errors. */
    static void aisEstimatesAgree(ParticleBackend other) {
        Rbm rbm = RandomRbm.create(24, 14, 1.0, 91);
        AnnealingResult[] r = new AnnealingResult[2];
        ParticleBackend[] backends = {cpu, other};
        for (int i = 0; i < 2; i++) {
            try (TemperedPath path = new TemperedPath(backends[i], new TemperedRbm(rbm, BaseRate.uniform(24)))) {
                r[i] = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(200, Schedule.linear(150), 3))
                        .forward(path, ProgressListener.NONE);
            }
        }
        double combined = Math.hypot(r[0].stdErr(), r[1].stdErr());
        System.out.printf(Locale.ROOT, "AIS: cpu %.5f ± %.5f, cuda %.5f ± %.5f%n", r[0].logZ(), r[0].stdErr(), r[1].logZ(),
                r[1].stdErr());
        assertTrue(Math.abs(r[0].logZ() - r[1].logZ()) <= 4 * combined, "AIS estimates differ by more than 4 combined SE");
    }

    /** ARM on the digits RBM, three replicates per backend: log mean Ẑ within combined standard errors. */
    static void armEstimatesAgree(ParticleBackend other) {
        var f = Fixtures.digits64x16();
        BinaryDataset digits = Datasets.load("digits");
        @SuppressWarnings({"unchecked", "rawtypes"})
        Replicates<SequentialResult>[] r = new Replicates[2];
        ParticleBackend[] backends = {cpu, other};
        for (int i = 0; i < 2; i++) {
            try (SequentialPath path = new SequentialPath(backends[i], new RbmSequence(f.rbm(), UnitOrder.byVariance(digits),
                    Optional.of(digits)))) {
                r[i] = Replicates.run(3, 7, seed -> new ResampleMove(new ResampleMove.Settings(ResampleMove.Variant.ARM, 120,
                        4, 0.7, 0.7, 3, ResamplingScheme.RESIDUAL, 100, 100, seed)).run(path, ProgressListener.NONE));
            }
        }
        double combined = Math.hypot(r[0].stdErr(), r[1].stdErr());
        System.out.printf(Locale.ROOT, "ARM: cpu %.4f ± %.4f, cuda %.4f ± %.4f%n", r[0].logZ(), r[0].stdErr(), r[1].logZ(),
                r[1].stdErr());
        assertTrue(Math.abs(r[0].logZ() - r[1].logZ()) <= Math.max(4 * combined, 0.05),
                "ARM estimates differ by more than 4 combined SE");
    }

    /**
     * Ising sweeps (forward and reversed) and Gaussian toy moves from the same states with the same
     * seed, and the RBM's levels: spins bit for bit but for rounding flips, toy states and level
     * values within tolerance.
     */
    static void modelKernelsAgree(ParticleBackend other) {
        Ising ising = new Ising(10);
        GaussianToy toy = GaussianToy.habeck();
        Rbm rbm = RandomRbm.create(41, 23, 1.0, 93);
        BaseRate base = BaseRate.of(RandomRbm.create(41, 1, 2.0, 94).visibleBias(), "test");
        int rows = 131;
        int levels = 17;
        double[] ladder = Schedule.linear(levels - 1).betas();
        float[] rbmStates = states(rows, 41, 95);
        float[][] spins = new float[2][];
        float[][] toyStates = new float[2][];
        double[][] logF = new double[2][];
        double[][] slope = new double[2][];
        ParticleBackend[] backends = {cpu, other};
        for (int i = 0; i < 2; i++) {
            ParticleBackend b = backends[i];
            try (TemperedKernel isingOps = Kernels.tempered(b, ising); TemperedKernel toyOps = Kernels.tempered(b, toy);
                 TemperedKernel rbmOps = Kernels.tempered(b, new TemperedRbm(rbm, base));
                 ParticleMatrix x = b.matrix(rows, 100); ParticleMatrix t = b.matrix(rows, 1);
                 ParticleMatrix v = b.matrix(rows, 41); ParticleVector lw = b.vector(rows);
                 ParticleVector betas = b.vector(levels); ParticleVector f = b.vector(rows * levels);
                 ParticleVector d = b.vector(rows * levels)) {
                isingOps.sampleBase(x, rows, 3, 0);
                isingOps.anneal(x, rows, 0.3, 0.45, lw, 2, 3, 1);
                isingOps.anneal(x, rows, 0.45, 0.4, lw, 2, 3, 3);
                spins[i] = b.download(x, rows);
                toyOps.sampleBase(t, rows, 3, 0);
                toyOps.anneal(t, rows, 0.0, 0.5, lw, 1, 3, 1);
                toyOps.transition(t, rows, Betas.of(0.5), 3, 3, 2);
                toyStates[i] = b.download(t, rows);
                b.upload(rbmStates, rows, v);
                b.upload(ladder, betas);
                rbmOps.levels(v, rows, betas, levels, f, d);
                logF[i] = b.download(f, rows * levels);
                slope[i] = b.download(d, rows * levels);
            }
        }
        int same = 0;
        for (int e = 0; e < spins[0].length; e++) {
            same += spins[0][e] == spins[1][e] ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "Ising sweeps: %d of %d spins identical%n", same, spins[0].length);
        assertTrue(same >= 0.999 * spins[0].length, "Ising sweeps: only " + same + " spins agree");
        for (int r = 0; r < rows; r++) {
            assertClose(toyStates[0][r], toyStates[1][r], "Gaussian toy state " + r);
        }
        for (int e = 0; e < logF[0].length; e++) {
            assertClose(logF[0][e], logF[1][e], "RBM level value " + e);
            assertClose(slope[0][e], slope[1][e], "RBM level slope " + e);
        }
    }

    /**
     * Potts heat-bath and Metropolis sweeps (forward, reversed and at per-chain β) from the same base draws with the same
     * seed: colours bit for bit but for rounding flips (the CPU and potts.cu run PottsSteps' float32 steps in one order),
     * annealing weights and levels within tolerance.
     */
    static void pottsKernelsAgree(ParticleBackend other) {
        int rows = 131;
        int levels = 9;
        double[] ladder = Schedule.linear(levels - 1).betas();
        double[] chainBetas = new double[rows];
        for (int r = 0; r < rows; r++) {
            chainBetas[r] = (r % 7) / 6.0;
        }
        for (Potts.Moves moves : Potts.Moves.values()) {
            Potts model = new Potts(10, 10, 2, moves);
            float[][] colours = new float[2][];
            double[][] weights = new double[2][];
            double[][] logF = new double[2][];
            double[][] slope = new double[2][];
            ParticleBackend[] backends = {cpu, other};
            for (int i = 0; i < 2; i++) {
                ParticleBackend b = backends[i];
                try (TemperedKernel ops = Kernels.tempered(b, model); ParticleMatrix x = b.matrix(rows, 100);
                     ParticleVector lw = b.vector(rows); ParticleVector chain = b.vector(rows);
                     ParticleVector betas = b.vector(levels); ParticleVector f = b.vector(rows * levels);
                     ParticleVector d = b.vector(rows * levels)) {
                    ops.sampleBase(x, rows, 3, 0);
                    ops.anneal(x, rows, 0.5, 0.7, lw, 3, 3, 1);
                    ops.anneal(x, rows, 0.7, 0.6, lw, 2, 3, 4);
                    b.upload(chainBetas, chain);
                    ops.transition(x, rows, Betas.of(chain), 2, 3, 6, 5);
                    colours[i] = b.download(x, rows);
                    weights[i] = b.download(lw, rows);
                    b.upload(ladder, betas);
                    ops.levels(x, rows, betas, levels, f, d);
                    logF[i] = b.download(f, rows * levels);
                    slope[i] = b.download(d, rows * levels);
                }
            }
            int same = 0;
            for (int e = 0; e < colours[0].length; e++) {
                same += colours[0][e] == colours[1][e] ? 1 : 0;
            }
            System.out.printf(Locale.ROOT, "Potts %s sweeps: %d of %d colours identical%n", moves, same, colours[0].length);
            assertTrue(same >= 0.999 * colours[0].length, "Potts " + moves + " sweeps: only " + same + " colours agree");
            for (int r = 0; r < rows; r++) {
                assertClose(weights[0][r], weights[1][r], "Potts annealing weight " + r);
            }
            for (int e = 0; e < logF[0].length; e++) {
                assertClose(logF[0][e], logF[1][e], "Potts level value " + e);
                assertClose(slope[0][e], slope[1][e], "Potts level slope " + e);
            }
        }
    }

    /** RTS on both backends with the same seed: every estimate within the combined standard errors. */
    static void temperedEstimatesAgree(ParticleBackend other) {
        Rbm rbm = RandomRbm.create(24, 14, 1.0, 91);
        TemperedResult[] r = new TemperedResult[2];
        ParticleBackend[] backends = {cpu, other};
        for (int i = 0; i < 2; i++) {
            try (TemperedPath path = new TemperedPath(backends[i], new TemperedRbm(rbm, BaseRate.uniform(24)))) {
                r[i] = new TemperedSampling(new TemperedSampling.Settings(60, Schedule.linear(39), null, 20, 4, 600, 10,
                        3000, 5)).run(path, ProgressListener.NONE);
            }
        }
        for (Method method : TemperedSampling.Settings.ESTIMATORS) {
            LevelEstimate a = r[0].estimate(method);
            LevelEstimate b = r[1].estimate(method);
            System.out.printf(Locale.ROOT, "%s: cpu %.4f ± %.4f, cuda %.4f ± %.4f%n", method, a.logZ(), a.stdErr(), b.logZ(),
                    b.stdErr());
            assertTrue(Math.abs(a.logZ() - b.logZ()) <= Math.max(4 * Math.hypot(a.stdErr(), b.stdErr()), 0.05),
                    method + " estimates differ by more than 4 combined SE");
        }
    }

    @Test
    void modelKernels() {
        modelKernelsAgree(cuda);
    }

    @Test
    void pottsKernels() {
        pottsKernelsAgree(cuda);
    }

    @Test
    void deterministicOperations() {
        deterministicOperationsAgree(cuda);
    }

    @Test
    void sampledStates() {
        sampledStatesAgreeBitForBit(cuda);
    }

    /**
     * Every estimator on every model with the same seed: the emulator runs the kernels' arithmetic
     * on the host, so its estimates and standard errors match the CPU's to 1e-6 relative (they agree
     * to about 1e-9); a weight or reduction bug confined to the CUDA path cannot hide within the
     * estimates' noise.
     */
    @Test
    void everyEstimatorAndModelAgreesToOnePartInAMillion() {
        Map<String, SameSeedAgreement.Value> a = SameSeedAgreement.estimates(cpu);
        Map<String, SameSeedAgreement.Value> b = SameSeedAgreement.estimates(cuda);
        assertEquals(a.keySet(), b.keySet());
        double worst = 0;
        for (String key : a.keySet()) {
            SameSeedAgreement.Value x = a.get(key);
            SameSeedAgreement.Value y = b.get(key);
            worst = Math.max(worst, Math.abs(x.logZ() - y.logZ()) / Math.abs(x.logZ()));
            assertAgree(x.logZ(), y.logZ(), key + " log Z");
            assertAgree(x.stdErr(), y.stdErr(), key + " standard error");
        }
        System.out.printf(Locale.ROOT, "%d estimates agree; largest relative difference of log Z %.1e%n", a.size(), worst);
    }

    /** Both NaN (no such standard error), or within 1e-6 relative. */
    private static void assertAgree(double cpu, double cuda, String what) {
        if (Double.isNaN(cpu)) {
            assertTrue(Double.isNaN(cuda), what + ": cpu has none, cuda " + cuda);
        } else {
            assertEquals(cpu, cuda, Math.max(1e-6 * Math.abs(cpu), 1e-12), what);
        }
    }
}
