package org.logz.testkit.reference;

import org.logz.backend.ParticleMatrix;
import org.logz.model.ising.Ising;
import org.logz.random.StreamTag;

/**
 * The L×L periodic Ising model, {@code log f_β(x) = β Σ_<ij> x_i x_j} over spins ±1 (DESIGN §5), with
 * neighbour tables instead of index arithmetic. A transition is one checkerboard heat-bath sweep: the
 * sites of colour {@code (row + column) mod 2} in increasing order, colour 0 first (colour 1 first when
 * annealing towards smaller β), site i set to +1 when word {@code i mod 4} of Philox block
 * {@code (i/4, particle, step, ISING)} falls below {@code σ(2β h_i)}, h_i the sum of its four neighbours.
 */
final class ReferenceIsingKernel extends ReferenceLatticeKernel {
    ReferenceIsingKernel(ReferenceBackend backend, Ising model) {
        super(backend, model.size(), "Ising");
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
    void sweep(float[] spins, int p, int chain, double beta, boolean colourOneFirst, long seed, int step) {
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
    @Override
    double energy(float[] spins, int p) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += spins[p * n + i] * (spins[p * n + neighbour[4 * i]] + spins[p * n + neighbour[4 * i + 2]]);
        }
        return s;
    }
}
