package org.logz.testkit.reference;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.ising.Ising;
import org.logz.random.StreamTag;

/**
 * The L×L periodic Ising model, {@code log f_β(x) = β Σ_<ij> x_i x_j} over spins ±1 (DESIGN §5), with
 * neighbour tables instead of index arithmetic. A transition is one checkerboard heat-bath sweep: the
 * sites of colour {@code (row + column) mod 2} in increasing order, colour 0 first (colour 1 first when
 * annealing towards smaller β), site i set to +1 when word {@code i mod 4} of Philox block
 * {@code (i/4, particle, step, ISING)} falls below {@code σ(2β h_i)}, h_i the sum of its four neighbours.
 */
final class ReferenceIsingKernel implements TemperedKernel {
    private final ReferenceBackend backend;
    private final int n;
    private final int[] colour;
    /** {@code neighbour[4i + d]}: right, left, down, up of site i. */
    private final int[] neighbour;
    private boolean closed;

    ReferenceIsingKernel(ReferenceBackend backend, Ising model) {
        this.backend = backend;
        int l = model.size();
        this.n = model.sites();
        this.colour = new int[n];
        this.neighbour = new int[4 * n];
        for (int row = 0; row < l; row++) {
            for (int col = 0; col < l; col++) {
                int i = row * l + col;
                colour[i] = (row + col) % 2;
                neighbour[4 * i] = row * l + (col + 1) % l;
                neighbour[4 * i + 1] = row * l + (col + l - 1) % l;
                neighbour[4 * i + 2] = (row + 1) % l * l + col;
                neighbour[4 * i + 3] = (row + l - 1) % l * l + col;
            }
        }
    }

    @Override
    public int dimension() {
        return n;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        float[] spins = states(x);
        for (int p = 0; p < count; p++) {
            for (int i = 0; i < n; i++) {
                spins[p * n + i] = ReferenceRbmKernel.uniform(seed, i, firstChain + p, step, StreamTag.ISING) < 0.5 ? 1f : -1f;
            }
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] spins = states(x);
        double[] values = backend.values(out);
        for (int p = 0; p < count; p++) {
            values[p] = beta * coupling(spins, p);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] spins = states(x);
        double[] weights = backend.values(logW);
        for (int p = 0; p < count; p++) {
            weights[p] += (to - from) * coupling(spins, p);
            for (int t = 0; t < transitions; t++) {
                sweep(spins, p, firstChain + p, to, to < from, seed, step + t);
            }
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        float[] spins = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle pp ? backend.values(pp.betas()) : null;
        for (int p = 0; p < count; p++) {
            double beta = perParticle != null ? perParticle[p] : ((Betas.Uniform) betas).beta();
            for (int t = 0; t < transitions; t++) {
                sweep(spins, p, firstChain + p, beta, false, seed, step + t);
            }
        }
    }

    /** {@code log f_β = β S(x)}: linear in β with slope S. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] spins = states(x);
        double[] betas = backend.values(levelBetas);
        for (int p = 0; p < count; p++) {
            double s = coupling(spins, p);
            for (int k = 0; k < levels; k++) {
                backend.values(logF)[p * levels + k] = betas[k] * s;
                backend.values(slope)[p * levels + k] = s;
            }
        }
    }

    private void sweep(float[] spins, int p, int chain, double beta, boolean colourOneFirst, long seed, int step) {
        for (int pass = 0; pass < 2; pass++) {
            int current = colourOneFirst ? 1 - pass : pass;
            for (int i = 0; i < n; i++) {
                if (colour[i] != current) {
                    continue;
                }
                double field = 0;
                for (int d = 0; d < 4; d++) {
                    field += spins[p * n + neighbour[4 * i + d]];
                }
                double up = 1 / (1 + Math.exp(-2 * beta * field));
                spins[p * n + i] = ReferenceRbmKernel.uniform(seed, i, chain, step, StreamTag.ISING) < up ? 1f : -1f;
            }
        }
    }

    /** {@code Σ_i x_i (x_right + x_down)}: every bond once. */
    private double coupling(float[] spins, int p) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += spins[p * n + i] * (spins[p * n + neighbour[4 * i]] + spins[p * n + neighbour[4 * i + 2]]);
        }
        return s;
    }

    private float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("Ising kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
