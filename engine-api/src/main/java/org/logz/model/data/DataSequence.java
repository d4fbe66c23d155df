package org.logz.model.data;

import java.util.Locale;
import java.util.Optional;

import org.logz.base.UserException;
import org.logz.model.PointwiseLikelihood;
import org.logz.model.SequentialModel;
import org.logz.path.UnitOrder;

/**
 * Data annealing (Habeck §6.4; the ARM paper's sequential idea beyond GP classification): over the parameters θ of a
 * {@link PointwiseLikelihood} (a fixed dimension d), the path {@code p_k(θ) ∝ p(θ) Π_{l<k} p(y_l | θ)} adds one data
 * point per iteration, in a {@link UnitOrder}: {@code E_k(θ) = -Σ_{l<k} log p(y_l | θ) - log p(θ)}, so p_0 is the
 * prior (Z_0 = 1) and p_n the posterior, {@code Z_n} the evidence. The smoothing weight of entering point l is
 * {@code p(y_l | θ)}; nothing is augmented. A particle's state is θ (d floats).
 */
public record DataSequence(PointwiseLikelihood model, UnitOrder order) implements SequentialModel {
    public DataSequence {
        if (order.permutation().length != model.points()) {
            throw new UserException("data order has " + order.permutation().length + " points, the model "
                    + model.points());
        }
    }

    /** {@code natural} (the data's own order, the default) or {@code random:SEED}; a one-line error otherwise. */
    public static UnitOrder order(String spec, int points) {
        if (spec != null && spec.trim().toLowerCase(Locale.ROOT).equals("variance")) {
            throw new UserException("--order variance orders an RBM's visible units; data annealing enters its points "
                    + "in the given order (natural) or random:SEED");
        }
        return UnitOrder.parse(spec, points, Optional.empty());
    }

    /** The model's index of the point entered at iteration k. */
    public int point(int k) {
        return order.permutation()[k];
    }

    @Override
    public String variableName() {
        return "observation";
    }

    @Override
    public String description() {
        return model.description() + ", " + model.pointName() + " entered in " + order.name() + " order";
    }

    /** One iteration per data point. */
    @Override
    public int length() {
        return model.points();
    }

    /** The parameters θ. */
    @Override
    public int dimension() {
        return model.parameters();
    }

    /** The prior is normalized. */
    @Override
    public double logZ0() {
        return 0;
    }

    /** θ (d floats). */
    @Override
    public long bytesPerParticle() {
        return 4L * model.parameters();
    }
}
