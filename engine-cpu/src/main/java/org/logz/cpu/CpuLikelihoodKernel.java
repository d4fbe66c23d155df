package org.logz.cpu;

import java.util.function.Supplier;

import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.LikelihoodKernel;
import org.logz.model.Likelihood;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.StochasticVolatility;

/**
 * Likelihood estimates of a latent-variable model on the CPU: the model's own scalar steps
 * ({@link Glmm#logLikelihoodEstimate}, {@link StochasticVolatility#logLikelihoodEstimate}) for every particle, tiles
 * of particles in parallel on the backend's threads, each worker with its own scratch.
 */
final class CpuLikelihoodKernel implements LikelihoodKernel {
    /** One worker's estimator with its scratch. */
    @FunctionalInterface
    private interface Worker {
        double estimate(double[] theta, Likelihood.Estimated likelihood, long seed, int particle, int step);
    }

    private final CpuBackend backend;
    private final int parameters;
    private final Supplier<Worker> workers;
    private boolean closed;

    private CpuLikelihoodKernel(CpuBackend backend, int parameters, Supplier<Worker> workers) {
        this.backend = backend;
        this.parameters = parameters;
        this.workers = workers;
    }

    static CpuLikelihoodKernel glmm(CpuBackend backend, Glmm model) {
        return new CpuLikelihoodKernel(backend, model.parameters(), () -> {
            double[] a = new double[(int) model.observations()];
            double[] laplace = new double[2];
            return (theta, l, seed, particle, step) -> model.logLikelihoodEstimate(theta, l.draws(), l.proposal(), seed,
                    particle, step, a, laplace);
        });
    }

    static CpuLikelihoodKernel stochasticVolatility(CpuBackend backend, StochasticVolatility model) {
        return new CpuLikelihoodKernel(backend, model.parameters(), new Supplier<>() {
            @Override
            public Worker get() {
                return new Worker() {
                    private double[] h = new double[0];
                    private double[] next = h;
                    private double[] logWeight = h;

                    @Override
                    public double estimate(double[] theta, Likelihood.Estimated l, long seed, int particle, int step) {
                        if (h.length < l.draws()) {
                            h = new double[l.draws()];
                            next = new double[l.draws()];
                            logWeight = new double[l.draws()];
                        }
                        return model.logLikelihoodEstimate(theta, l.draws(), seed, particle, step, h, next, logWeight);
                    }
                };
            }
        });
    }

    @Override
    public void estimate(ParticleMatrix theta, int count, Likelihood.Estimated likelihood, long seed, int step,
                         ParticleVector out) {
        if (closed) {
            throw new IllegalStateException("likelihood kernel is closed");
        }
        CpuMatrix tm = backend.own(theta);
        double[] values = backend.own(out).values();
        backend.forEachTile(0, count, (t, from, to) -> {
            Worker worker = workers.get();
            float[] row = new float[tm.cols()];
            double[] th = new double[parameters];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                tm.readRow(particle, row, 0);
                for (int k = 0; k < parameters; k++) {
                    th[k] = row[k];
                }
                values[particle] = worker.estimate(th, likelihood, seed, particle, step);
            }
        });
    }

    @Override
    public void close() {
        closed = true;
    }
}
