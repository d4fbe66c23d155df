package org.logz.bench;

import java.util.List;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.kernel.TemperedKernel;
import org.logz.memory.Footprint;
import org.logz.model.GpClassification;
import org.logz.model.gpc.TemperedGpc;
import org.logz.path.GpcSequence;
import org.logz.path.UnitOrder;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The speed of GP classification's two transitions against the dense products of the same shapes, in
 * one run: a slice-sampled Gibbs sweep over all n cases of R particles (ARM Appendix A; 2n² multiply-adds
 * per particle: {@code v = S z} afresh and one rank-1 update per case) against one float64 GEMM
 * {@code Z S} (R × n by n × n, the floor of the same arithmetic done as a blocked product) and R GEMVs
 * {@code S z_r} (the floor when each particle reads S on its own); an elliptical slice transition of R
 * chains against the GEMM {@code Ξ Gᵀ} (R × rank by rank × n) that its auxiliary draws amount to. The
 * products run in ND4J (OpenBLAS) on the host with the given threads.
 */
public final class GpcSweepBenchmark {
    /**
     * @param particles R
     * @param repeats   timed repetitions; medians are reported
     * @param threads   host threads of the products
     */
    public record Settings(int particles, int repeats, int threads) {
    }

    /** Seconds per sweep or transition and per product, and the ratios. */
    public record Result(String backend, int cases, int rank, int particles, int threads, double gibbsSweepSeconds,
                         double gemmSeconds, double gemvSeconds, double gibbsSweepOverGemm, double gibbsSweepOverGemv,
                         double ellipseStepSeconds, double ellipseGemmSeconds, double ellipseStepOverGemm) {
    }

    private GpcSweepBenchmark() {
    }

    public static Result run(ParticleBackend backend, GpClassification model, Settings s) {
        int n = model.size();
        int r = s.particles();
        TemperedGpc prior = TemperedGpc.fromPrior(model);
        int rank = prior.rank();
        backend.require(new Footprint(Footprint.times(r, 24L * n), 0, Footprint.times(r, 16L * n) + 16L * n * n),
                "bench sweep with " + r + " particles on " + model);
        double[] gibbs = new double[s.repeats()];
        double[] ellipse = new double[s.repeats()];
        double[] gemm = new double[s.repeats()];
        double[] gemv = new double[s.repeats()];
        double[] ellipseGemm = new double[s.repeats()];
        GpcSequence sequence = new GpcSequence(model, UnitOrder.random(n, 1));
        try (SequentialKernel gibbsKernel = Kernels.sequential(backend, sequence);
             TemperedKernel ellipseKernel = Kernels.tempered(backend, prior);
             ParticleMatrix z = backend.matrix(r, n); ParticleMatrix x = backend.matrix(r, n)) {
            ParticleState state = new ParticleState(List.of(z));
            gibbsKernel.reset(state, 0, r);
            for (int v = 0; v < n; v++) {
                gibbsKernel.augment(state, v, 0, r, 1, v);
            }
            ellipseKernel.sampleBase(x, r, 1, 0);
            Products products = new Products(sequence, prior, r, s.threads());
            int step = n;
            // warm-up: JIT compilation, first touch of every buffer
            gibbsKernel.move(state, n, 0, r, 1, 1, step++);
            ellipseKernel.transition(x, r, Betas.of(1.0), 1, 1, step++);
            products.warmUp();
            for (int k = 0; k < s.repeats(); k++) {
                long t0 = System.nanoTime();
                gibbsKernel.move(state, n, 0, r, 1, 1, step++);
                backend.synchronize();
                gibbs[k] = (System.nanoTime() - t0) * 1e-9;
                t0 = System.nanoTime();
                ellipseKernel.transition(x, r, Betas.of(1.0), 1, 1, step++);
                backend.synchronize();
                ellipse[k] = (System.nanoTime() - t0) * 1e-9;
                gemm[k] = products.gemm();
                gemv[k] = products.gemv();
                ellipseGemm[k] = products.ellipseGemm();
            }
        }
        double g = SweepBenchmark.median(gibbs);
        double e = SweepBenchmark.median(ellipse);
        double mm = SweepBenchmark.median(gemm);
        double mv = SweepBenchmark.median(gemv);
        double em = SweepBenchmark.median(ellipseGemm);
        return new Result(backend.name(), n, rank, r, s.threads(), g, mm, mv, g / mm, g / mv, e, em, e / em);
    }

    /** The products of the same shapes in ND4J, float64. */
    private static final class Products {
        private final INDArray z;
        private final INDArray s;
        private final INDArray out;
        private final INDArray[] columns;
        private final INDArray[] columnOut;
        private final INDArray xi;
        private final INDArray g;
        private final INDArray nu;

        Products(GpcSequence sequence, TemperedGpc prior, int particles, int threads) {
            Nd4j.factory().blas().setMaxThreads(threads);
            int n = sequence.length();
            int rank = Math.max(1, prior.rank());
            s = Nd4j.create(sequence.precision().at(n), new long[] {n, n}, DataType.DOUBLE);
            z = Nd4j.rand(DataType.DOUBLE, particles, n);
            out = Nd4j.zeros(DataType.DOUBLE, particles, n);
            columns = new INDArray[particles];
            columnOut = new INDArray[particles];
            for (int p = 0; p < particles; p++) {
                columns[p] = Nd4j.rand(DataType.DOUBLE, n, 1);
                columnOut[p] = Nd4j.zeros(DataType.DOUBLE, n, 1);
            }
            xi = Nd4j.rand(DataType.DOUBLE, particles, rank);
            g = Nd4j.rand(DataType.DOUBLE, rank, n);
            nu = Nd4j.zeros(DataType.DOUBLE, particles, n);
        }

        void warmUp() {
            gemm();
            gemv();
            ellipseGemm();
        }

        double gemm() {
            long t0 = System.nanoTime();
            Nd4j.gemm(z, s, out, false, false, 1.0, 0.0);
            return (System.nanoTime() - t0) * 1e-9;
        }

        double gemv() {
            long t0 = System.nanoTime();
            for (int p = 0; p < columns.length; p++) {
                Nd4j.gemm(s, columns[p], columnOut[p], false, false, 1.0, 0.0);
            }
            return (System.nanoTime() - t0) * 1e-9;
        }

        double ellipseGemm() {
            long t0 = System.nanoTime();
            Nd4j.gemm(xi, g, nu, false, false, 1.0, 0.0);
            return (System.nanoTime() - t0) * 1e-9;
        }
    }
}
