package org.logz.model.rbm;

import java.util.Optional;

import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.model.Rbm;
import org.logz.model.SequentialModel;
import org.logz.numeric.LogSpace;
import org.logz.path.UnitOrder;

/**
 * The sequential RBM path of the ARM paper (§5, eq. 13-14): visible units enter one at a time in a
 * {@link UnitOrder}, {@code log p_n(x_[n]) ∝ a_[n]ᵀx_[n] + Σ_j softplus(g_j)} with
 * {@code g = b + W_[n]ᵀx_[n]}, and {@code log Z_0 = Σ_j softplus(b_j)} (the hidden layer alone). The
 * model is permuted once ({@link #permuted()}) so that units enter in index order; kernels keep each
 * particle's {@code g}, updated by one rank-1 term per entering unit.
 */
public final class RbmSequence implements SequentialModel {
    private final Rbm rbm;
    private final UnitOrder order;
    private final Optional<BinaryDataset> data;
    private final Rbm permuted;

    /**
     * @param data examples that reseeding starts chains from (in the model's unit order); may be empty
     */
    public RbmSequence(Rbm rbm, UnitOrder order, Optional<BinaryDataset> data) {
        if (order.permutation().length != rbm.visible()) {
            throw new UserException("unit order has " + order.permutation().length + " units, the model "
                    + rbm.visible());
        }
        data.ifPresent(d -> {
            if (d.dimension() != rbm.visible()) {
                throw new UserException("data set " + d + " has " + d.dimension() + " units per example, the "
                        + "model " + rbm.visible() + " visible units");
            }
        });
        this.rbm = rbm;
        this.order = order;
        this.data = data;
        this.permuted = rbm.permuteVisible(order.permutation());
    }

    public Rbm rbm() {
        return rbm;
    }

    public UnitOrder order() {
        return order;
    }

    /** The model with its visible units in entry order: the one kernels bind. */
    public Rbm permuted() {
        return permuted;
    }

    @Override
    public String description() {
        return "RBM " + rbm.visible() + "×" + rbm.hidden() + ", units in " + order.name() + " order";
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

    @Override
    public boolean discrete() {
        return true;
    }

    /** x (N floats), g = b + xW (H floats) and the products' scratch (N + 2H). */
    @Override
    public long bytesPerParticle() {
        return 4L * (2L * rbm.visible() + 3L * rbm.hidden());
    }

    @Override
    public boolean hasExamples() {
        return data.isPresent();
    }

    /** The data examples in the path's unit order (a copy of the data set, built on each call). */
    @Override
    public Optional<float[]> examples() {
        return data.map(d -> {
            int n = rbm.visible();
            int[] p = order.permutation();
            float[] rows = new float[d.size() * n];
            for (int e = 0; e < d.size(); e++) {
                for (int k = 0; k < n; k++) {
                    rows[e * n + k] = d.get(e, p[k]) ? 1f : 0f;
                }
            }
            return rows;
        });
    }
}
