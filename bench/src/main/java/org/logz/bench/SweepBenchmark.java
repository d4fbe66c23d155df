package org.logz.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.api.Logz;
import org.logz.base.UserException;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.kernel.Kernels;
import org.logz.kernel.ProductTiming;
import org.logz.kernel.TemperedKernel;
import org.logz.memory.Footprint;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.rbm.TemperedRbm;

/**
 * Gibbs sweeps, AIS steps and tempered-sampling iterations of an RBM on a backend, against the time of their matrix
 * products alone, all measured in one run and interleaved so that machine noise hits both sides alike. The floor is
 * the best whole-shape product pair the process reaches: on the CPU the faster of ND4J's OpenBLAS (one SGEMM per
 * product on all threads; its time does not depend on the values) and the backend's own products over contiguous
 * rows (one per thread) of the chains' current states and a hidden draw from them, the inputs a sweep multiplies
 * (the kernels skip zeros, so random states would time another product); on CUDA the device's products. Speed is
 * reported as ratios, never as bare timings.
 */
public final class SweepBenchmark {

    /**
     * @param chains  particles
     * @param sweeps  sweeps per timed repetition
     * @param repeats timed repetitions (the median is reported)
     * @param threads backend threads
     * @param runs    whether to time a default RTS run against an AIS run too (seconds to a minute on 784×500)
     */
    public record Settings(int chains, int sweeps, int repeats, int threads, boolean runs) {
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

    /** A whole-shape product pair, whether it multiplies dense inputs, and its median seconds per sweep. */
    public record Floor(String library, boolean dense, double seconds) {
    }

    /**
     * Whole runs on the backend: tempered sampling (rts) at its defaults, initial rounds and MBAR included, and AIS
     * (forward, default steps) with as many chains, each timed from start to result; {@code rtsOverAis} their seconds
     * per chain-sweep over each other.
     */
    public record Runs(int chains, long rtsChainSweeps, double rtsSeconds, long aisChainSweeps, double aisSeconds,
                       double rtsOverAis) {
    }

    /**
     * Medians over repetitions. {@code sweepOverBestGemm} is a sweep's time over the fastest of {@code floors};
     * {@code sweepOverOwnProducts} the same over the backend's products as its kernels lay them out;
     * {@code annealOverSweep} an AIS step (weight update plus sweep) over a sweep; {@code temperOverAnneal} an RTS
     * iteration's two backend calls ({@code log f} and its slope at all {@value #LEVELS} levels of the ladder, then a
     * sweep with each chain at its own level, Carlson et al. Algorithm 1) over an AIS step.
     * {@code sweepOverBestDenseGemm} is a sweep's time over the fastest floor on dense inputs: a dense SGEMM pair of
     * the sweep's shapes, which a sweep that skips the states' zeros should beat. {@code runs} is null unless asked.
     */
    public record Result(String backend, String backendDescription, int visible, int hidden, int chains, int threads,
                         double sweepSeconds,
                         double annealStepSeconds, double temperSeconds, double ownProductSeconds, List<Floor> floors,
                         Floor bestGemm, double sweepOverBestGemm, Floor bestDenseGemm, double sweepOverBestDenseGemm,
                         double sweepOverOwnProducts, double annealOverSweep,
                         double temperOverAnneal, double sweepsPerSecond, double bestGemmGflops, Runs runs) {
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
        double[] temper = new double[s.repeats()];
        double[] own = new double[s.repeats()];
        // the chains and the kernel's activations on the backend, the baselines' copies of both
        backend.require(new Footprint(Footprint.times(s.chains(), 8L * (n + h)), Footprint.times(s.chains(), 8),
                Footprint.times(s.chains(), 16L * (n + h))), "bench sweep with " + s.chains() + " chains on a " + n + "×"
                + h + " RBM");
        double[] ladder = new double[LEVELS];
        double[] chainBetas = new double[s.chains()];
        for (int k = 0; k < LEVELS; k++) {
            ladder[k] = k / (LEVELS - 1.0);
        }
        for (int r = 0; r < s.chains(); r++) {
            chainBetas[r] = ladder[r % LEVELS];
        }
        Products products = products(backend, rbm, s);
        double[][] floors = new double[products.floors().size()][s.repeats()];
        try (products; TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, base));
             ParticleMatrix x = backend.matrix(s.chains(), n); ParticleVector lw = backend.vector(s.chains());
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
            products.own(x, 3);
            for (int f = 0; f < floors.length; f++) {
                products.floor(f, x, 3);
            }
            backend.synchronize();
            for (int r = 0; r < s.repeats(); r++) {
                // one call per sweep, as AIS steps and tempered iterations make them, the three interleaved call by
                // call so that the machine's noise hits each alike; the sweep and the AIS step at β = 1 (the kernels'
                // cost depends on how sparse the states are, so both see the same states)
                for (int k = 0; k < s.sweeps(); k++) {
                    long t0 = System.nanoTime();
                    ops.transition(x, s.chains(), Betas.of(1.0), 1, 1, step++);
                    backend.synchronize();
                    long t1 = System.nanoTime();
                    ops.anneal(x, s.chains(), 1 - 1e-6, 1.0, lw, 1, 1, step++);
                    backend.synchronize();
                    long t2 = System.nanoTime();
                    // levels first: in a run's steady state a sweep follows every all-level evaluation of the same
                    // states and shares its product (CPU backend's product cache), and nothing else here does
                    ops.levels(x, s.chains(), levelBetas, LEVELS, logF, slope);
                    ops.transition(x, s.chains(), Betas.of(betas), 1, 1, step++);
                    backend.synchronize();
                    long t3 = System.nanoTime();
                    sweep[r] += (t1 - t0) * 1e-9 / s.sweeps();
                    anneal[r] += (t2 - t1) * 1e-9 / s.sweeps();
                    temper[r] += (t3 - t2) * 1e-9 / s.sweeps();
                }
                own[r] = products.own(x, s.sweeps()) / s.sweeps();
                for (int f = 0; f < floors.length; f++) {
                    floors[f][r] = products.floor(f, x, s.sweeps()) / s.sweeps();
                }
            }
        }
        double sw = median(sweep);
        double an = median(anneal);
        double tm = median(temper);
        double ow = median(own);
        List<Floor> measured = new ArrayList<>();
        for (int f = 0; f < floors.length; f++) {
            Floor named = products.floors().get(f);
            measured.add(new Floor(named.library(), named.dense(), median(floors[f])));
        }
        Floor best = measured.stream().min(Comparator.comparingDouble(Floor::seconds)).orElseThrow();
        Floor bestDense = measured.stream().filter(Floor::dense).min(Comparator.comparingDouble(Floor::seconds))
                .orElse(best);
        double flops = 4.0 * s.chains() * n * h;
        Runs runs = s.runs() ? runs(backend, rbm) : null;
        return new Result(backend.name(), backend.description(), n, h, s.chains(), s.threads(), sw, an, tm, ow,
                List.copyOf(measured), best, sw / best.seconds(), bestDense, sw / bestDense.seconds(), sw / ow,
                an / sw, tm / an, 1.0 / sw, flops / best.seconds() * 1e-9, runs);
    }

    /** {@link Runs}: each run once, seed 1, after the timed sweeps (so both find the JIT and the kernels warm). */
    static Runs runs(ParticleBackend backend, Rbm rbm) {
        TemperedResult rts = (TemperedResult) Logz.rbm(rbm).rts().backend(backend).seed(1).run().run();
        AnnealingResult ais = (AnnealingResult) Logz.rbm(rbm).ais().chains(rts.chains()).backend(backend).seed(1)
                .run().run();
        double perRts = rts.seconds() / rts.sweeps();
        double perAis = ais.seconds() / ais.sweeps();
        return new Runs(rts.chains(), rts.sweeps(), rts.seconds(), ais.sweeps(), ais.seconds(), perRts / perAis);
    }

    /** The two products of a sweep alone, timed on the backend's own device. */
    private interface Products extends AutoCloseable {
        /** As the backend's kernels lay them out, on the chains' current states. */
        double own(ParticleMatrix x, int sweeps);

        /** The whole-shape product pairs (their seconds unset). */
        List<Floor> floors();

        /** Whole-shape pair f, on the chains' current states. */
        double floor(int f, ParticleMatrix x, int sweeps);

        @Override
        void close();
    }

    private static Products products(ParticleBackend backend, Rbm rbm, Settings s) {
        ProductTiming timing = backend.capability(ProductTiming.class).orElseThrow(() -> new UserException(
                "bench sweep times a backend's products, and " + backend.name() + " cannot time them"));
        if (!timing.onHost()) {
            return new Products() {
                @Override
                public double own(ParticleMatrix x, int sweeps) {
                    return timing.seconds(rbm, x, s.chains(), sweeps, false);
                }

                @Override
                public List<Floor> floors() {
                    return List.of(new Floor("the device's products", true, Double.NaN));
                }

                @Override
                public double floor(int f, ParticleMatrix x, int sweeps) {
                    return own(x, sweeps);
                }

                @Override
                public void close() {
                }
            };
        }
        OpenBlasBaseline openBlas = new OpenBlasBaseline(rbm.weights(), rbm.visible(), rbm.hidden(), s.chains(), s.threads());
        return new Products() {
            @Override
            public double own(ParticleMatrix x, int sweeps) {
                return timing.seconds(rbm, x, s.chains(), sweeps, false);
            }

            @Override
            public List<Floor> floors() {
                return List.of(
                        new Floor("OpenBLAS through ND4J, one SGEMM per product on " + s.threads() + " threads", true,
                                Double.NaN),
                        new Floor("logz's dense products (every unit on), one per thread over contiguous rows", true,
                                Double.NaN),
                        new Floor("logz's products of the chains' states, one per thread over contiguous rows", false,
                                Double.NaN));
            }

            @Override
            public double floor(int f, ParticleMatrix x, int sweeps) {
                return switch (f) {
                    case 0 -> openBlas.seconds(sweeps);
                    case 1 -> timing.denseSeconds(rbm, s.chains(), sweeps).orElseThrow();
                    default -> timing.seconds(rbm, x, s.chains(), sweeps, true);
                };
            }

            @Override
            public void close() {
                openBlas.close();
            }
        };
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : 0.5 * (c[c.length / 2 - 1] + c[c.length / 2]);
    }
}
