package org.logz.path;

import java.util.ArrayList;
import java.util.List;

import org.logz.base.UserException;
import org.logz.model.GpClassification;
import org.logz.model.SequentialModel;

/**
 * GP classification on the ARM paper's data-annealing path (§4, eq. 10 and Appendix A): cases enter
 * one at a time in a {@link UnitOrder}, {@code p_n(z_[n]) ∝ N(z_[n]; 0, Σ_[n]) Π_{i<n} Θ(y_i z_i)}
 * with {@code Σ = K + I}, so {@code Z_0 = 1} and {@code Z_N} is the evidence. The model is permuted
 * once ({@link #permuted()}) so that cases enter in index order. A particle's state is z (N floats; z_i
 * = 0 for cases not entered yet); the precisions {@code S^(n)} are the same for every particle and
 * are kept once, on the host, by {@link #precision()}.
 */
public final class GpcSequence implements SequentialModel {
    private final GpClassification model;
    private final UnitOrder order;
    private final GpClassification permuted;
    private final double[] sigma;
    private final int[] labels;
    private final List<GpcPrecision> handedOut = new ArrayList<>();

    public GpcSequence(GpClassification model, UnitOrder order) {
        int n = model.size();
        if (order.permutation().length != n) {
            throw new UserException("case order has " + order.permutation().length + " cases, the model " + n);
        }
        this.model = model;
        this.order = order;
        int[] p = order.permutation();
        double[] k = new double[n * n];
        int[] y = new int[n];
        for (int a = 0; a < n; a++) {
            y[a] = model.label(p[a]);
            for (int b = 0; b < n; b++) {
                k[a * n + b] = model.k(p[a], p[b]);
            }
        }
        this.permuted = new GpClassification(k, y, model.name());
        this.sigma = permuted.zCovariance();
        this.labels = y;
    }

    public GpClassification model() {
        return model;
    }

    public UnitOrder order() {
        return order;
    }

    /** The model with its cases in entry order: the one kernels bind. */
    public GpClassification permuted() {
        return permuted;
    }

    /** A fresh grower of the precisions of {@code Σ = K + I} in entry order (one per kernel). */
    public GpcPrecision precision() {
        GpcPrecision p = new GpcPrecision(sigma, labels.length);
        synchronized (handedOut) {
            handedOut.add(p);
        }
        return p;
    }

    /** The largest relative drift of a grown precision against a fresh factorization, over all kernels so far. */
    public double maxPrecisionDrift() {
        synchronized (handedOut) {
            return handedOut.stream().mapToDouble(GpcPrecision::maxDrift).max().orElse(0);
        }
    }

    /** The largest condition-number estimate of {@code Σ_[n]} the kernels' precisions met. */
    public double conditionEstimate() {
        synchronized (handedOut) {
            return handedOut.stream().mapToDouble(GpcPrecision::conditionEstimate).max().orElse(1);
        }
    }

    /** How often the kernels' grown precisions were replaced by fresh inverses. */
    public int precisionRefactorizations() {
        synchronized (handedOut) {
            return handedOut.stream().mapToInt(GpcPrecision::refactorizations).sum();
        }
    }

    /** {@code y_i} in entry order. */
    public int label(int i) {
        return labels[i];
    }

    /**
     * {@code log f_n(z) = log N(z_[n]; 0, Σ_[n]) + Σ log Θ(y_i z_i)} of the state {@code z[offset ..
     * offset + N)}, n one past its last non-zero entry (-∞ when a z_i has the wrong sign), with the
     * precisions of {@code precision}. Host side: the estimators never need it (the model is not discrete).
     */
    public double logDensity(GpcPrecision precision, float[] z, int offset) {
        int n = labels.length;
        int entered = n;
        while (entered > 0 && z[offset + entered - 1] == 0f) {
            entered--;
        }
        double[] s = precision.at(entered);
        double quad = 0;
        for (int i = 0; i < entered; i++) {
            if (labels[i] * z[offset + i] <= 0) {
                return Double.NEGATIVE_INFINITY;
            }
            for (int j = 0; j < entered; j++) {
                quad += z[offset + i] * s[i * entered + j] * z[offset + j];
            }
        }
        return -0.5 * quad - 0.5 * entered * Math.log(2 * Math.PI) - 0.5 * precision.logDet(entered);
    }

    @Override
    public String variableName() {
        return "case";
    }

    @Override
    public String description() {
        return model + ", cases in " + order.name() + " order";
    }

    @Override
    public int length() {
        return labels.length;
    }

    /** {@code Z_0 = 1}: with no case entered the orthant is the whole space. */
    @Override
    public double logZ0() {
        return 0;
    }

    /** z (N floats) and a move's running {@code S z} (N doubles of device scratch). */
    @Override
    public long bytesPerParticle() {
        return 12L * labels.length;
    }
}
