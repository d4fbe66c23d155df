package org.logz.cuda;

import org.logz.backend.GaussianToyOps;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.model.GaussianToy;

/** Gaussian toy kernels on the device (gaussian_toy.cu); the six parameters travel as kernel arguments. */
final class CudaGaussianToyOps implements GaussianToyOps {
    private final CudaBackend backend;
    private final GaussianToyKernels kernels;
    private final GaussianToy model;
    private boolean closed;

    CudaGaussianToyOps(CudaBackend backend, GaussianToy model) {
        this.backend = backend;
        this.kernels = backend.gaussianToyKernels;
        this.model = model;
    }

    @Override
    public GaussianToy model() {
        return model;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step) {
        CudaMatrix xm = states(x, count);
        if (count > 0) {
            kernels.base(xm.address(), count, model, seed, step);
        }
    }

    @Override
    public void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, boolean transition,
                           long seed, int step) {
        CudaMatrix xm = states(x, count);
        CudaVector lw = backend.own(logW);
        lw.checkRange(0, count);
        if (count > 0) {
            kernels.anneal(xm.address(), count, model, from, to, lw.address(), transition, seed, step);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, double beta, int sweeps, long seed, int step) {
        CudaMatrix xm = states(x, count);
        for (int s = 0; s < sweeps && count > 0; s++) {
            kernels.move(xm.address(), count, model, beta, seed, step + s);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CudaMatrix xm = states(x, count);
        CudaVector o = backend.own(out);
        o.checkRange(0, count);
        if (count > 0) {
            kernels.logDensity(xm.address(), count, model, beta, o.address());
        }
    }

    private CudaMatrix states(ParticleMatrix x, int count) {
        if (closed) {
            throw new IllegalStateException("Gaussian toy ops are closed");
        }
        CudaMatrix xm = backend.own(x);
        xm.checkRows(0, count);
        xm.requireColumns(1, "value of the Gaussian toy");
        return xm;
    }

    @Override
    public void close() {
        closed = true;
    }
}
