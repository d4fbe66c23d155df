package org.logz.model.ising;

import org.logz.base.UserException;
import org.logz.model.GroundStates;
import org.logz.model.TemperedModel;

/**
 * The 2D Ising model on an L × L torus (DESIGN §5): spins ±1,
 * {@code E(x) = -Σ_<ij> x_i x_j} over the 2L² nearest-neighbour bonds, {@code f_β(x) = exp(-βE(x))},
 * base {@code p_0} uniform with {@code Z_0 = 2^{L²}}. L must be even, so that the checkerboard
 * colouring the batched sweeps rely on is a proper two-colouring of the torus.
 */
public record Ising(int size) implements TemperedModel {
    public Ising {
        if (size < 2 || size % 2 != 0) {
            throw new UserException("Ising lattice size L must be even and at least 2, got " + size);
        }
        if ((long) size * size > 1 << 24) {
            throw new UserException("Ising lattice " + size + "×" + size + " is too large");
        }
    }

    public int sites() {
        return size * size;
    }

    @Override
    public String description() {
        return "Ising " + size + "×" + size + " torus";
    }

    /** Counts the transitions in Habeck's unit, heat-bath sweeps of L² flips. */
    @Override
    public String description(int transitionsPerStep) {
        return description() + ", " + transitionsPerStep + " heat-bath sweep" + (transitionsPerStep > 1 ? "s" : "")
                + " per step";
    }

    @Override
    public int dimension() {
        return sites();
    }

    /** {@code log Z_0 = L² log 2}: the uniform distribution over spins. */
    @Override
    public double logZ0() {
        return sites() * Math.log(2.0);
    }

    @Override
    public boolean discrete() {
        return true;
    }

    /**
     * The two ground states, all spins +1 and all -1, alternating over {@code count} rows: the start
     * of reverse runs (Habeck 2017, §6.1).
     */
    public float[] groundStates(int count) {
        return GroundStates.rows(count, sites(), "ground-state starts of the " + size + "×" + size + " Ising model",
                r -> r % 2 == 0 ? 1 : -1);
    }

    /** {@code Σ_<ij> x_i x_j} of one configuration (row-major spins ±1), each bond once. */
    public double coupling(float[] spins, int offset) {
        double s = 0;
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < size; c++) {
                float x = spins[offset + r * size + c];
                s += x * spins[offset + r * size + (c + 1) % size];
                s += x * spins[offset + ((r + 1) % size) * size + c];
            }
        }
        return s;
    }

    /** {@code log f_β = -β E(x)}. */
    @Override
    public boolean linearPath() {
        return true;
    }
}
