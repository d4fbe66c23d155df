package org.logz.cuda;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.potts.Potts;

/**
 * The Potts kernel on the device (potts.cu; levels from tempering.cu's linear-level kernel); the model is a few
 * numbers, so nothing is uploaded. A transition is one checkerboard sweep of heat-bath or Metropolis updates.
 */
final class CudaPottsKernel implements TemperedKernel {
    private final CudaBackend backend;
    private final PottsKernels kernels;
    private final Potts model;
    private final int l;
    private final int moves;
    private final LinearLevels linearLevels;
    private boolean closed;

    CudaPottsKernel(CudaBackend backend, Potts model) {
        this.backend = backend;
        this.linearLevels = new LinearLevels(backend);
        this.kernels = backend.launcher(PottsKernels.class, PottsKernels::new);
        this.model = model;
        this.l = model.size();
        this.moves = model.moves() == Potts.Moves.HEATBATH ? PottsKernels.HEATBATH : PottsKernels.METROPOLIS;
    }

    @Override
    public int dimension() {
        return model.sites();
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        if (count > 0) {
            kernels.base(states(x), count, model.sites(), model.colours(), seed, step, firstChain);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps, long seed,
                       int step, int firstChain) {
        if (count == 0) {
            return;
        }
        long xm = states(x);
        kernels.annealWeights(xm, l, count, (to - from) * model.coupling(), backend.own(logW).address());
        for (int s = 0; s < sweeps; s++) {
            kernels.sweep(xm, l, count, model.colours(), model.coupling(), to, 0, moves, to < from, seed, step + s, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        if (count == 0) {
            return;
        }
        long xm = states(x);
        double beta = betas instanceof Betas.Uniform u ? u.beta() : 0;
        long perRow = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).address() : 0;
        for (int s = 0; s < sweeps; s++) {
            kernels.sweep(xm, l, count, model.colours(), model.coupling(), beta, perRow, moves, false, seed, step + s,
                    firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        if (count > 0) {
            kernels.logDensity(states(x), l, count, beta, model.coupling(), backend.own(out).address());
        }
    }

    /** log f_β = β J S(x) is linear in β: J S once per chain, then {@code logF = β_k J S}, {@code slope = J S}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        if (count > 0) {
            long xm = states(x);
            linearLevels.levels(count, at -> kernels.logDensity(xm, l, count, 1.0, model.coupling(), at), levelBetas,
                    levels, logF, slope);
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Potts kernel is closed");
        }
        return backend.own(x).address();
    }

    @Override
    public void close() {
        closed = true;
        linearLevels.close();
    }
}
