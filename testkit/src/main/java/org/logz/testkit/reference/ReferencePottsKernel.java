package org.logz.testkit.reference;

import org.logz.backend.ParticleMatrix;
import org.logz.model.potts.Potts;
import org.logz.random.StreamTag;

/**
 * The q-state Potts model on the L×L torus, {@code log f_β(x) = β J Σ_<ij> δ(x_i, x_j)} over colours 0 .. q-1 (DESIGN
 * §5), written from the formulas in float64 with neighbour tables. A transition is one checkerboard sweep: the sites of
 * colour {@code (row + column) mod 2} in increasing order, colour 0 first (colour 1 first when annealing towards smaller
 * β). Heat-bath: site i takes the smallest colour x with {@code u W < Σ_{y ≤ x} e^{β J n_y}}, n_y its neighbours of
 * colour y, W the sum over all q, u word {@code i mod 4} of Philox block {@code (1 << 24 | i/4, particle, step, MODEL)}.
 * Metropolis: proposal {@code (x_i + 1 + floor(u (q-1))) mod q}, accepted when {@code v < e^{β J Δ}}, u and v words
 * {@code 2(i mod 2)} and {@code 2(i mod 2) + 1} of block {@code (2 << 24 | i/2, ...)}. Base draws: colour
 * {@code floor(u q)} from word {@code i mod 4} of block {@code (i/4, ...)}.
 */
final class ReferencePottsKernel extends ReferenceLatticeKernel {
    private final int q;
    private final double coupling;
    private final boolean heatBath;

    ReferencePottsKernel(ReferenceBackend backend, Potts model) {
        super(backend, model.size(), "Potts");
        this.q = model.colours();
        this.coupling = model.coupling();
        this.heatBath = model.moves() == Potts.Moves.HEATBATH;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        float[] s = states(x);
        for (int p = 0; p < count; p++) {
            for (int i = 0; i < n; i++) {
                double u = ReferenceRbmKernel.uniform(seed, i, firstChain + p, step, StreamTag.MODEL);
                s[p * n + i] = Math.min((int) (u * q), q - 1);
            }
        }
    }

    @Override
    void sweep(float[] s, int p, int chain, double beta, boolean colourOneFirst, long seed, int step) {
        for (int pass = 0; pass < 2; pass++) {
            int current = colourOneFirst ? 1 - pass : pass;
            for (int i = 0; i < n; i++) {
                if (colour[i] == current) {
                    s[p * n + i] = heatBath ? heatBath(s, p, i, beta, seed, chain, step)
                            : metropolis(s, p, i, beta, seed, chain, step);
                }
            }
        }
    }

    private int heatBath(float[] s, int p, int i, double beta, long seed, int chain, int step) {
        double[] weight = new double[q];
        double total = 0;
        for (int y = 0; y < q; y++) {
            weight[y] = Math.exp(beta * coupling * neighboursOf(s, p, i, y));
            total += weight[y];
        }
        double target = ReferenceRbmKernel.uniform(seed, 4 * (1 << 24) + i, chain, step, StreamTag.MODEL) * total;
        double cumulative = 0;
        for (int y = 0; y < q; y++) {
            cumulative += weight[y];
            if (target < cumulative) {
                return y;
            }
        }
        return q - 1;
    }

    private int metropolis(float[] s, int p, int i, double beta, long seed, int chain, int step) {
        int x = (int) s[p * n + i];
        // uniforms 2(i mod 2) and 2(i mod 2) + 1 of block 2 << 24 | i/2: unit k of the block sequence is word k mod 4
        int unit = 4 * ((2 << 24) + i / 2) + 2 * (i % 2);
        double u = ReferenceRbmKernel.uniform(seed, unit, chain, step, StreamTag.MODEL);
        double v = ReferenceRbmKernel.uniform(seed, unit + 1, chain, step, StreamTag.MODEL);
        int proposed = (x + 1 + Math.min((int) (u * (q - 1)), q - 2)) % q;
        double delta = neighboursOf(s, p, i, proposed) - neighboursOf(s, p, i, x);
        return v < Math.exp(beta * coupling * delta) ? proposed : x;
    }

    private int neighboursOf(float[] s, int p, int i, int y) {
        int k = 0;
        for (int d = 0; d < 4; d++) {
            k += s[p * n + neighbour[4 * i + d]] == y ? 1 : 0;
        }
        return k;
    }

    /** {@code J Σ_i [δ(x_i, x_right) + δ(x_i, x_down)]}: every bond once. */
    @Override
    double energy(float[] s, int p) {
        int a = 0;
        for (int i = 0; i < n; i++) {
            float v = s[p * n + i];
            a += (v == s[p * n + neighbour[4 * i]] ? 1 : 0) + (v == s[p * n + neighbour[4 * i + 2]] ? 1 : 0);
        }
        return coupling * a;
    }
}
