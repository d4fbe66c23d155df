package org.logz.model.rbm;


import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.TemperedModel;

/**
 * An RBM on the base-rate tempered path of Salakhutdinov &amp; Murray (2008), DESIGN §5:
 * {@code log f_β(x) = (1-β) a0ᵀx + β aᵀx + Σ_j softplus(β (b_j + xᵀW_:j))}.
 *
 * <p>At β = 0 every hidden term is {@code softplus(0) = log 2}, so
 * {@code log Z_0 = Σ_i softplus(a0_i) + H log 2}: the hidden units of the β = 0 RBM are free coins.
 * (DESIGN §5 writes {@code Z_0 = Π_i (1 + e^{a0_i})}, which leaves out the {@code 2^H}.)
 */
public record TemperedRbm(Rbm rbm, BaseRate baseRate) implements TemperedModel {
    /** The RBM's numbers and the base rate's, digested ({@link ContentDigest}). */
    @Override
    public String fingerprint() {
        return "rbm " + rbm.visible() + "x" + rbm.hidden() + " " + ContentDigest.of(rbm.weights(), rbm.visibleBias(),
                rbm.hiddenBias()) + ", base " + ContentDigest.of(baseRate.logOdds());
    }

    /** Ascents in the hidden marginal behind {@link #stateBound}. */
    static final int BOUND_ASCENTS = 16;

    public TemperedRbm {
        if (baseRate.visible() != rbm.visible()) {
            throw new UserException("base rate has " + baseRate.visible() + " units, the model " + rbm.visible());
        }
    }

    @Override
    public String description() {
        return "RBM " + rbm.visible() + "×" + rbm.hidden() + ", base rate " + baseRate.source();
    }

    @Override
    public String baseRateSource() {
        return baseRate.source();
    }

    @Override
    public int dimension() {
        return rbm.visible();
    }

    @Override
    public double logZ0() {
        return baseRate.logNormalizer() + rbm.hidden() * Math.log(2.0);
    }

    @Override
    public boolean discrete() {
        return true;
    }

    /**
     * The bound of {@link HiddenModes#lowerBound}: {@code log f(x)}, and the hidden marginal at the
     * states' likely hidden configurations and at the modes that {@value #BOUND_ASCENTS} of them climb to.
     */
    @Override
    public OptionalDouble stateBound(float[] states, int count) {
        return OptionalDouble.of(HiddenModes.lowerBound(rbm, states, count, BOUND_ASCENTS));
    }

    @Override
    public long bytesPerChain() {
        return bytesPerChain(rbm);
    }

    /** The state x (N floats) and the products' scratch, U = xW and V = hWᵀ (H + N), and h (H). */
    static long bytesPerChain(Rbm rbm) {
        return 4L * (2L * rbm.visible() + 2L * rbm.hidden());
    }

    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        if (!RbmEnumeration.canSample(rbm)) {
            return Optional.empty();
        }
        return Optional.of(RbmEnumeration.sample(rbm, count, seed));
    }
}
