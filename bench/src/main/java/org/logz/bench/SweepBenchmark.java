package org.logz.bench;

import java.util.Arrays;

import org.logz.UserException;
import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.cuda.CudaBackend;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.memory.Footprint;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.TemperedRbm;

/**
 * Gibbs sweeps, AIS steps and tempered-sampling iterations of an RBM on a backend, against the time of their matrix products alone
 * (on the CPU: {@link GemmBaseline}, whole-shape and as the backend tiles them; on CUDA: the same
 * SGEMMs on the device),
 * all measured in one run and interleaved so that machine noise hits both sides alike. Speed is
 * reported as ratios, never as bare timings.
 */
public final class SweepBenchmark {

    /**
     * @param chains  particles
     * @param sweeps  sweeps per timed repetition
     * @param repeats timed repetitions (the median is reported)
     * @param threads backend threads
     */
    public record Settings(int chains, int sweeps, int repeats, int threads) {
        public Settings {
            if (chains < 1 || sweeps < 1 || repeats < 1 || threads < 1) {
                throw new UserException("chains, sweeps, repeats and threads must be positive");
            }
            // each repetition runs a sweep, an AIS step and a tempered iteration per sweep, each on its own Philox step
            if (4 + 3L * sweeps * repeats > Integer.MAX_VALUE) {
                throw new UserException("--sweeps " + sweeps + " × --repeats " + repeats + " exceed the random streams' "
                        + "2^31 step indices; a benchmark needs far fewer");
            }
        }
    }

    /**
     * Medians over repetitions. {@code sweepOverBestGemm} is a sweep's time over the best pair of its two
     * products (on the CPU one whole-shape SGEMM each on all threads; on CUDA the backend's own cuBLAS
     * products); {@code sweepOverGemm} the same over the products as the backend tiles them;
     * {@code annealOverSweep} an AIS step (weight update plus sweep) over a sweep; {@code temperOverAnneal} an RTS
     * iteration's two backend calls (a sweep with each chain at its own level, then {@code log f} and its slope at all
     * {@value #LEVELS} levels of the ladder, Carlson et al. Algorithm 1) over an AIS step.
     */
    public record Result(String backend, int visible, int hidden, int chains, int threads, double sweepSeconds,
                         double annealStepSeconds, double gemmSeconds, double bestGemmSeconds, double sweepOverBestGemm,
                         double sweepOverGemm, double annealOverGemm, double annealOverSweep, double temperSeconds,
                         double temperOverAnneal, double sweepsPerSecond, double gemmGflops) {
    }

    /** Levels of the tempered iteration's ladder: the RTS default. */
    public static final int LEVELS = 100;

    private SweepBenchmark() {
    }

    public static Result run(ParticleBackend backend, Rbm rbm, BaseRate base, Settings s) {
        int n = rbm.visible();
        int h = rbm.hidden();
        double[] sweep = new double[s.repeats()];
        double[] anneal = new double[s.repeats()];
        double[] gemm = new double[s.repeats()];
        double[] best = new double[s.repeats()];
        double[] temper = new double[s.repeats()];
        // the chains and the kernel's activations on the backend, the baseline's copies of both on the heap
        backend.require(new Footprint(Footprint.times(s.chains(), 8L * (n + h)), Footprint.times(s.chains(), 8),
                Footprint.times(s.chains(), 8L * (n + h))), "bench sweep with " + s.chains() + " chains on a " + n + "×"
                + h + " RBM");
        double[] ladder = new double[LEVELS];
        double[] chainBetas = new double[s.chains()];
        for (int k = 0; k < LEVELS; k++) {
            ladder[k] = k / (LEVELS - 1.0);
        }
        for (int r = 0; r < s.chains(); r++) {
            chainBetas[r] = ladder[r % LEVELS];
        }
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, base)); ParticleMatrix x = backend.matrix(s.chains(), n);
             ParticleVector lw = backend.vector(s.chains()); Products products = products(backend, rbm, s);
             ParticleVector levelBetas = backend.vector(LEVELS); ParticleVector betas = backend.vector(s.chains());
             ParticleVector logF = backend.vector(s.chains() * LEVELS);
             ParticleVector slope = backend.vector(s.chains() * LEVELS)) {
            backend.upload(ladder, levelBetas);
            backend.upload(chainBetas, betas);
            ops.sampleBase(x, s.chains(), 1, 0);
            int step = 1;
            // warm-up: JIT compilation, first touch of every buffer, kernel loading
            ops.transition(x, s.chains(), Betas.of(1.0), 3, 1, step);
            step += 3;
            products.seconds(3);
            products.bestSeconds(3);
            backend.synchronize();
            for (int r = 0; r < s.repeats(); r++) {
                long t0 = System.nanoTime();
                ops.transition(x, s.chains(), Betas.of(1.0), s.sweeps(), 1, step);
                backend.synchronize();
                sweep[r] = (System.nanoTime() - t0) * 1e-9 / s.sweeps();
                step += s.sweeps();
                gemm[r] = products.seconds(s.sweeps()) / s.sweeps();
                best[r] = products.bestSeconds(s.sweeps()) / s.sweeps();
                t0 = System.nanoTime();
                for (int k = 0; k < s.sweeps(); k++) {
                    ops.anneal(x, s.chains(), 0.5, 0.5 + 1e-6, lw, 1, 1, step++);
                }
                backend.synchronize();
                anneal[r] = (System.nanoTime() - t0) * 1e-9 / s.sweeps();
                t0 = System.nanoTime();
                for (int k = 0; k < s.sweeps(); k++) {
                    ops.transition(x, s.chains(), Betas.of(betas), 1, 1, step++);
                    ops.levels(x, s.chains(), levelBetas, LEVELS, logF, slope);
                }
                backend.synchronize();
                temper[r] = (System.nanoTime() - t0) * 1e-9 / s.sweeps();
            }
        }
        double sw = median(sweep);
        double an = median(anneal);
        double gm = median(gemm);
        double bg = median(best);
        double tm = median(temper);
        double flops = 4.0 * s.chains() * n * h;
        return new Result(backend.name(), n, h, s.chains(), s.threads(), sw, an, gm, bg, sw / bg, sw / gm, an / gm, an / sw,
                tm, tm / an, 1.0 / sw, flops / bg * 1e-9);
    }

    /** The two products of a sweep alone, timed on the backend's own device. */
    private interface Products extends AutoCloseable {
        /** As the backend lays them out. */
        double seconds(int sweeps);

        /** The best the device reaches for the whole shape. */
        double bestSeconds(int sweeps);

        @Override
        void close();
    }

    private static Products products(ParticleBackend backend, Rbm rbm, Settings s) {
        if (backend instanceof CudaBackend cuda) {
            return new Products() {
                @Override
                public double seconds(int sweeps) {
                    return cuda.productSeconds(s.chains(), rbm.visible(), rbm.hidden(), sweeps);
                }

                @Override
                public double bestSeconds(int sweeps) {
                    return seconds(sweeps);
                }

                @Override
                public void close() {
                }
            };
        }
        GemmBaseline cpu = new GemmBaseline(rbm.weights(), rbm.visible(), rbm.hidden(), s.chains(), s.threads());
        return new Products() {
            @Override
            public double seconds(int sweeps) {
                return cpu.time(sweeps);
            }

            @Override
            public double bestSeconds(int sweeps) {
                return cpu.timeWhole(sweeps);
            }

            @Override
            public void close() {
                cpu.close();
            }
        };
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : 0.5 * (c[c.length / 2 - 1] + c[c.length / 2]);
    }
}
