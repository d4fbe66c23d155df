package org.logz.testkit.reference;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;

/**
 * What the reference kernels of the L×L torus models (Ising, Potts) share: neighbour tables and the checkerboard
 * colouring, a path linear in β ({@code log f_β(x) = β E(x)}, so levels are {@code β_k E} with slope E), annealing
 * increments {@code (β' - β) E} before the transitions at β', and per-chain temperatures. A model adds E and one sweep.
 */
abstract class ReferenceLatticeKernel implements TemperedKernel {
    final ReferenceBackend backend;
    final int n;
    /** {@code colour[i] = (row + column) mod 2}, the checkerboard class of site i. */
    final int[] colour;
    /** {@code neighbour[4i + d]}: right, left, down, up of site i. */
    final int[] neighbour;
    private final String name;
    private boolean closed;

    ReferenceLatticeKernel(ReferenceBackend backend, int size, String name) {
        this.backend = backend;
        this.name = name;
        this.n = size * size;
        this.colour = new int[n];
        this.neighbour = new int[4 * n];
        for (int row = 0; row < size; row++) {
            for (int col = 0; col < size; col++) {
                int i = row * size + col;
                colour[i] = (row + col) % 2;
                neighbour[4 * i] = row * size + (col + 1) % size;
                neighbour[4 * i + 1] = row * size + (col + size - 1) % size;
                neighbour[4 * i + 2] = (row + 1) % size * size + col;
                neighbour[4 * i + 3] = (row + size - 1) % size * size + col;
            }
        }
    }

    /** E(x) of particle p: {@code log f_β = β E}. */
    abstract double energy(float[] s, int p);

    /**
     * One checkerboard sweep of particle p (chain {@code chain}) at β, colour class 1 first when {@code colourOneFirst}
     * (the time reversal of a forward sweep), drawing from Philox step {@code step}.
     */
    abstract void sweep(float[] s, int p, int chain, double beta, boolean colourOneFirst, long seed, int step);

    @Override
    public int dimension() {
        return n;
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] s = states(x);
        double[] values = backend.values(out);
        for (int p = 0; p < count; p++) {
            values[p] = beta * energy(s, p);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] s = states(x);
        double[] weights = backend.values(logW);
        for (int p = 0; p < count; p++) {
            weights[p] += (to - from) * energy(s, p);
            for (int t = 0; t < transitions; t++) {
                sweep(s, p, firstChain + p, to, to < from, seed, step + t);
            }
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        float[] s = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle pp ? backend.values(pp.betas()) : null;
        for (int p = 0; p < count; p++) {
            double beta = perParticle != null ? perParticle[p] : ((Betas.Uniform) betas).beta();
            for (int t = 0; t < transitions; t++) {
                sweep(s, p, firstChain + p, beta, false, seed, step + t);
            }
        }
    }

    /** {@code log f_β = β E(x)}: linear in β with slope E. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] s = states(x);
        double[] betas = backend.values(levelBetas);
        for (int p = 0; p < count; p++) {
            double e = energy(s, p);
            for (int k = 0; k < levels; k++) {
                backend.values(logF)[p * levels + k] = betas[k] * e;
                backend.values(slope)[p * levels + k] = e;
            }
        }
    }

    final float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException(name + " kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
