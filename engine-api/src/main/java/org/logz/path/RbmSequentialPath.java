package org.logz.path;

import java.util.Optional;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.RbmOps;
import org.logz.data.BinaryDataset;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;

/**
 * The sequential RBM path of the ARM paper (§5, eq. 13-14): visible units enter one at a time in a
 * {@link UnitOrder}, {@code log p_n(x_[n]) ∝ a_[n]ᵀx_[n] + Σ_j softplus(g_j)} with
 * {@code g = b + W_[n]ᵀx_[n]}, and {@code log Z_0 = Σ_j softplus(b_j)} (the hidden layer alone). The
 * model is permuted once so that units enter in index order; each particle keeps its
 * {@code g} on the backend, updated by one rank-1 term per entering unit.
 */
public final class RbmSequentialPath implements SequentialPath {
    private final ParticleBackend backend;
    private final Rbm rbm;
    private final UnitOrder order;
    private final Rbm permuted;
    private final RbmOps ops;
    private final BinaryDataset data;
    private ParticleMatrix dataStates;

    /**
     * @param data examples that {@link Particles#reseed} starts chains from (in the model's unit
     *             order, permuted here); may be empty
     */
    public RbmSequentialPath(ParticleBackend backend, Rbm rbm, UnitOrder order, Optional<BinaryDataset> data) {
        if (order.permutation().length != rbm.visible()) {
            throw new IllegalArgumentException("unit order has " + order.permutation().length + " units, the model "
                    + rbm.visible());
        }
        data.ifPresent(d -> {
            if (d.dimension() != rbm.visible()) {
                throw new IllegalArgumentException("data set " + d + " has " + d.dimension() + " units per example, the model "
                        + rbm.visible() + " visible units");
            }
        });
        this.backend = backend;
        this.rbm = rbm;
        this.order = order;
        this.permuted = rbm.permuteVisible(order.permutation());
        this.ops = backend.bind(permuted, BaseRate.uniform(rbm.visible()));
        this.data = data.orElse(null);
    }

    public UnitOrder order() {
        return order;
    }

    @Override
    public String description() {
        return "RBM " + rbm.visible() + "×" + rbm.hidden() + ", units in " + order.name() + " order";
    }

    @Override
    public ParticleBackend backend() {
        return backend;
    }

    @Override
    public int length() {
        return rbm.visible();
    }

    @Override
    public double logZ0() {
        double s = 0;
        for (float bj : rbm.hiddenBias()) {
            s += LogSpace.softplus(bj);
        }
        return s;
    }

    /** x (N floats), g = b + xW (H floats) and the products' scratch (N + 2H). */
    @Override
    public long bytesPerParticle() {
        return 4L * (2L * rbm.visible() + 3L * rbm.hidden());
    }

    @Override
    public boolean discrete() {
        return true;
    }

    @Override
    public boolean canReseed() {
        return data != null;
    }

    /** The data examples in the path's unit order, uploaded once on first use. */
    private ParticleMatrix dataStates() {
        if (dataStates == null) {
            int n = rbm.visible();
            int[] p = order.permutation();
            float[] rows = new float[data.size() * n];
            for (int e = 0; e < data.size(); e++) {
                for (int k = 0; k < n; k++) {
                    rows[e * n + k] = data.get(e, p[k]) ? 1f : 0f;
                }
            }
            dataStates = backend.matrix(data.size(), n);
            backend.upload(rows, data.size(), dataStates);
        }
        return dataStates;
    }

    @Override
    public Particles particles(int capacity, int placeCapacity) {
        return new RbmParticles(capacity, placeCapacity);
    }

    @Override
    public void close() {
        if (dataStates != null) {
            dataStates.close();
            dataStates = null;
        }
        ops.close();
    }

    private final class RbmParticles implements Particles {
        private final int capacity;
        private final ParticleMatrix x;
        private final ParticleMatrix g;
        private final ParticleMatrix xSpare;
        private final ParticleMatrix gSpare;
        private final IndexVector rows;

        RbmParticles(int capacity, int placeCapacity) {
            if (placeCapacity < 1 || placeCapacity > capacity) {
                throw new IllegalArgumentException("place capacity " + placeCapacity + " outside [1, " + capacity + "]");
            }
            this.capacity = capacity;
            this.x = backend.matrix(capacity, rbm.visible());
            this.g = backend.matrix(capacity, rbm.hidden());
            this.xSpare = backend.matrix(placeCapacity, rbm.visible());
            this.gSpare = backend.matrix(placeCapacity, rbm.hidden());
            this.rows = backend.indices(placeCapacity);
        }

        @Override
        public int capacity() {
            return capacity;
        }

        @Override
        public void reset(int first, int count) {
            ops.resetSequential(x, g, first, count);
        }

        @Override
        public void move(int active, int first, int count, int sweeps, long seed, int step) {
            if (active > 0) {
                ops.move(x, g, first, count, active, sweeps, seed, step);
            }
        }

        @Override
        public void smooth(int unit, int first, int count, ParticleVector logW) {
            ops.smooth(g, first, count, unit, logW);
        }

        /** {@code aᵀx + Σ_j softplus(b_j + xᵀW_:j)}: units not yet entered are 0, so this is {@code log f_n}. */
        @Override
        public void logDensity(int count, ParticleVector out) {
            ops.logDensity(x, count, 1.0, out);
        }

        @Override
        public void augment(int unit, int first, int count, long seed, int step) {
            ops.augment(x, g, first, count, unit, seed, step);
        }

        @Override
        public void copy(int from, int to, int count) {
            backend.copyRows(x, from, x, to, count);
            backend.copyRows(g, from, g, to, count);
        }

        @Override
        public void place(IndexVector sources, int count, int to) {
            backend.gatherRows(x, sources, count, xSpare, 0);
            backend.gatherRows(g, sources, count, gSpare, 0);
            backend.copyRows(xSpare, 0, x, to, count);
            backend.copyRows(gSpare, 0, g, to, count);
        }

        @Override
        public void reseed(int active, int first, int count, int sweeps, long seed, int step) {
            if (data == null) {
                throw new IllegalStateException("reseeding needs a data set to start chains from");
            }
            if (count > rows.length()) {
                throw new IllegalArgumentException("reseeding " + count + " particles exceeds the place capacity "
                        + rows.length());
            }
            backend.randomIndices(data.size(), count, seed, step, rows);
            backend.gatherRows(dataStates(), rows, count, x, first);
            backend.zeroColumns(x, first, count, active);
            ops.preActivations(x, g, first, count);
            move(active, first, count, sweeps, seed, step + 1);
        }

        @Override
        public float[] states(int first, int count) {
            float[] all = backend.download(x, first + count);
            return java.util.Arrays.copyOfRange(all, first * rbm.visible(), (first + count) * rbm.visible());
        }

        @Override
        public void close() {
            x.close();
            g.close();
            xSpare.close();
            gSpare.close();
            rows.close();
        }
    }
}
