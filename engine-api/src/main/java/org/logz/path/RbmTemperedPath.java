package org.logz.path;

import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.RbmOps;
import org.logz.exact.RbmEnumeration;
import org.logz.model.BaseRate;
import org.logz.model.HiddenModes;
import org.logz.model.Rbm;

/**
 * The base-rate tempered RBM path of Salakhutdinov &amp; Murray (2008), DESIGN §5:
 * {@code log f_β(x) = (1-β) a0ᵀx + β aᵀx + Σ_j softplus(β (b_j + xᵀW_:j))}.
 *
 * <p>At β = 0 every hidden term is {@code softplus(0) = log 2}, so
 * {@code log Z_0 = Σ_i softplus(a0_i) + H log 2}: the hidden units of the β = 0 RBM are free coins.
 * (DESIGN §5 writes {@code Z_0 = Π_i (1 + e^{a0_i})}, which leaves out the {@code 2^H}.)
 */
public final class RbmTemperedPath implements TemperingPath {
    private final ParticleBackend backend;
    private final Rbm rbm;
    private final BaseRate baseRate;
    private final RbmOps ops;

    public RbmTemperedPath(ParticleBackend backend, Rbm rbm, BaseRate baseRate) {
        this.backend = backend;
        this.rbm = rbm;
        this.baseRate = baseRate;
        this.ops = backend.bind(rbm, baseRate);
    }

    public Rbm rbm() {
        return rbm;
    }

    public BaseRate baseRate() {
        return baseRate;
    }

    @Override
    public String description() {
        return "RBM " + rbm.visible() + "×" + rbm.hidden() + ", base rate " + baseRate.source();
    }

    @Override
    public ParticleBackend backend() {
        return backend;
    }

    @Override
    public int dimension() {
        return rbm.visible();
    }

    /** The state x (N floats) and the products' scratch, U = xW and V = hWᵀ (H + N), and h (H). */
    @Override
    public long bytesPerChain() {
        return 4L * (2L * rbm.visible() + 2L * rbm.hidden());
    }

    /**
     * The bound of {@link HiddenModes#lowerBound} on the chains' states: {@code log f(x)}, and the
     * hidden marginal at the states' likely hidden configurations and at the modes that
     * {@value #BOUND_ASCENTS} of them climb to. One download of the states; host arithmetic of about one
     * Gibbs sweep plus the ascents.
     */
    @Override
    public OptionalDouble visitedBound(TemperedPath.Chains chains) {
        return OptionalDouble.of(HiddenModes.lowerBound(rbm, chains.states(), chains.count(), BOUND_ASCENTS));
    }

    /** Ascents in the hidden marginal behind {@link #visitedBound}. */
    static final int BOUND_ASCENTS = 16;

    @Override
    public boolean discrete() {
        return true;
    }

    @Override
    public double logZ0() {
        return baseRate.logNormalizer() + rbm.hidden() * Math.log(2.0);
    }

    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        if (!RbmEnumeration.canSample(rbm)) {
            return Optional.empty();
        }
        return Optional.of(RbmEnumeration.sample(rbm, count, seed));
    }

    @Override
    public TemperingPath.Chains chains(int count) {
        return new RbmChains(count);
    }

    @Override
    public void close() {
        ops.close();
    }

    private final class RbmChains extends MatrixChains implements TemperingPath.Chains {
        RbmChains(int count) {
            super(RbmTemperedPath.this.backend, count, rbm.visible());
        }

        @Override
        public void sampleBase(long seed, int step) {
            ops.sampleBase(x, count, seed, step);
        }

        @Override
        public void anneal(double from, double to, ParticleVector logW, boolean transition, long seed, int step) {
            ops.annealStep(x, count, from, to, logW, transition, seed, step);
        }

        @Override
        public void transition(double beta, int sweeps, long seed, int step) {
            ops.gibbs(x, count, beta, sweeps, seed, step);
        }

        @Override
        public void transition(ParticleVector betas, int sweeps, long seed, int step) {
            ops.gibbs(x, count, Betas.of(betas), sweeps, seed, step);
        }

        @Override
        public void levels(ParticleVector levelBetas, int levels, ParticleVector logF, ParticleVector slope) {
            ops.levels(x, count, levelBetas, levels, logF, slope);
        }

        @Override
        public void logDensity(double beta, ParticleVector out) {
            ops.logDensity(x, count, beta, out);
        }
    }
}
