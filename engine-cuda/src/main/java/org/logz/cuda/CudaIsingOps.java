package org.logz.cuda;

import org.logz.backend.Betas;
import org.logz.backend.IsingOps;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.model.Ising;

/** Ising kernels on the device (ising.cu); the model is two integers, so nothing is uploaded. */
final class CudaIsingOps implements IsingOps {
    private final CudaBackend backend;
    private final IsingKernels kernels;
    private final Ising model;
    private final int l;
    private boolean closed;

    CudaIsingOps(CudaBackend backend, Ising model) {
        this.backend = backend;
        this.kernels = backend.isingKernels;
        this.model = model;
        this.l = model.size();
    }

    @Override
    public Ising model() {
        return model;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step) {
        CudaMatrix xm = states(x, count);
        if (count > 0) {
            kernels.base(xm.address(), count, model.sites(), seed, step);
        }
    }

    @Override
    public void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps,
                           long seed, int step) {
        CudaMatrix xm = states(x, count);
        CudaVector lw = backend.own(logW);
        lw.checkRange(0, count);
        if (count == 0) {
            return;
        }
        kernels.annealWeights(xm.address(), l, count, from, to, lw.address());
        for (int s = 0; s < sweeps; s++) {
            kernels.sweep(xm.address(), l, count, (float) to, 0, to < from, s, seed, step);
        }
    }

    @Override
    public void sweep(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step) {
        CudaMatrix xm = states(x, count);
        float beta = betas instanceof Betas.Uniform u ? (float) u.beta() : 0f;
        long perRow = 0;
        if (betas instanceof Betas.PerParticle p) {
            CudaVector v = backend.own(p.betas());
            v.checkRange(0, count);
            perRow = v.address();
        }
        if (count == 0) {
            return;
        }
        for (int s = 0; s < sweeps; s++) {
            kernels.sweep(xm.address(), l, count, beta, perRow, false, s, seed, step);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CudaMatrix xm = states(x, count);
        CudaVector o = backend.own(out);
        o.checkRange(0, count);
        if (count > 0) {
            kernels.logDensity(xm.address(), l, count, beta, o.address());
        }
    }

    private CudaMatrix states(ParticleMatrix x, int count) {
        if (closed) {
            throw new IllegalStateException("Ising ops are closed");
        }
        CudaMatrix xm = backend.own(x);
        xm.checkRows(0, count);
        xm.requireColumns(model.sites(), "sites of the Ising lattice");
        return xm;
    }

    @Override
    public void close() {
        closed = true;
    }
}
