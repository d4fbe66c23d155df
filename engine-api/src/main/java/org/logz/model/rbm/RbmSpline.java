package org.logz.model.rbm;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.TemperedModel;

/**
 * An RBM on the moment-averages path (Grosse, Maddison &amp; Salakhutdinov 2013, AIS-MAS, the reference of the ARM and
 * VAROPT papers): knot RBMs θ_i at {@code 0 = β_0 < ... < β_K = 1}, θ_0 the base rate's (visible biases a0, no hidden
 * field, no weights) and θ_K the target, the interior ones fitted to the averaged moments
 * {@code (1-β_i) E_0[s] + β_i E_1[s]} ({@link MomentAveraging}); between knots the natural parameters are
 * interpolated linearly, {@code θ(β) = (1-t) θ_i + t θ_{i+1}}, so every intermediate distribution is an RBM, sampled by
 * its own Gibbs sweep, and {@code log f_β(x) = a(β)ᵀx + Σ_j softplus(b_j(β) + xW(β)_:j)}. Only the ends are exact; the
 * fit of the knots changes the variance of AIS's weights, never what they estimate.
 *
 * @param knots     the knot RBMs, the base rate's first and the target last
 * @param knotBetas their β's, from 0 to 1, strictly increasing
 * @param base      the base rate, whose RBM is the first knot
 * @param summary   how the knots were fitted, for reports
 */
public record RbmSpline(List<Rbm> knots, double[] knotBetas, BaseRate base, String summary) implements TemperedModel {
    public RbmSpline {
        knots = List.copyOf(knots);
        knotBetas = knotBetas.clone();
        if (knots.size() < 2 || knots.size() != knotBetas.length || knotBetas[0] != 0
                || knotBetas[knotBetas.length - 1] != 1) {
            throw new UserException("a moment-averages path needs knots from β = 0 to 1, one RBM each");
        }
        for (int i = 1; i < knotBetas.length; i++) {
            if (!(knotBetas[i] > knotBetas[i - 1])) {
                throw new UserException("the knots' β's must increase, got " + knotBetas[i - 1] + " then " + knotBetas[i]);
            }
            Rbm r = knots.get(i);
            if (r.visible() != knots.get(0).visible() || r.hidden() != knots.get(0).hidden()) {
                throw new UserException("every knot RBM must have the target's shape");
            }
        }
    }

    /** The base rate's RBM: visible biases a0, hidden biases and weights 0, so that its f is the base's. */
    public static Rbm baseRbm(BaseRate base, int hidden) {
        return new Rbm(base.visible(), hidden, new float[base.visible() * hidden], base.logOdds(), new float[hidden]);
    }

    @Override
    public double[] knotBetas() {
        return knotBetas.clone();
    }

    /** The target RBM (the last knot). */
    public Rbm target() {
        return knots.get(knots.size() - 1);
    }

    /** The RBM at β: the linear interpolation of the natural parameters of the knots around it. */
    public Rbm at(double beta) {
        int i = segment(beta);
        double t = (beta - knotBetas[i]) / (knotBetas[i + 1] - knotBetas[i]);
        if (t == 0) {
            return knots.get(i);
        }
        if (t == 1) {
            return knots.get(i + 1);
        }
        Rbm lo = knots.get(i);
        Rbm hi = knots.get(i + 1);
        return new Rbm(lo.visible(), lo.hidden(), lerp(lo.weights(), hi.weights(), t),
                lerp(lo.visibleBias(), hi.visibleBias(), t), lerp(lo.hiddenBias(), hi.hiddenBias(), t));
    }

    /** The segment [β_i, β_{i+1}] holding β (the last one for β = 1). */
    int segment(double beta) {
        if (!(beta >= 0 && beta <= 1)) {
            throw new IllegalArgumentException("β must lie in [0, 1], got " + beta);
        }
        int i = 0;
        while (i < knotBetas.length - 2 && beta > knotBetas[i + 1]) {
            i++;
        }
        return i;
    }

    private static float[] lerp(float[] lo, float[] hi, double t) {
        float[] out = new float[lo.length];
        for (int k = 0; k < out.length; k++) {
            out[k] = (float) ((1 - t) * lo[k] + t * hi[k]);
        }
        return out;
    }

    /** The knots' β's and numbers and the base rate's, in one digest. */
    @Override
    public String fingerprint() {
        Object[] parts = new Object[2 + 3 * knots.size()];
        parts[0] = knotBetas;
        parts[1] = base.logOdds();
        for (int i = 0; i < knots.size(); i++) {
            parts[2 + 3 * i] = knots.get(i).weights();
            parts[3 + 3 * i] = knots.get(i).visibleBias();
            parts[4 + 3 * i] = knots.get(i).hiddenBias();
        }
        return "rbm " + target().visible() + "x" + target().hidden() + " on the moment-averages path, "
                + knots.size() + " knots " + ContentDigest.of(parts);
    }

    @Override
    public String description() {
        Rbm t = target();
        return "RBM " + t.visible() + "×" + t.hidden() + " on the moment-averages path (" + summary + "), base rate "
                + base.source();
    }

    /** What the reports print after "base rate": the source, and the path with its fit. */
    @Override
    public String baseRateSource() {
        return base.source() + " (moment-averages path: " + summary + ")";
    }

    @Override
    public int dimension() {
        return target().visible();
    }

    @Override
    public double logZ0() {
        return base.logNormalizer() + target().hidden() * Math.log(2.0);
    }

    @Override
    public boolean discrete() {
        return true;
    }

    @Override
    public OptionalDouble stateBound(float[] states, int count) {
        return new TemperedRbm(target(), base).stateBound(states, count);
    }

    /** The kernels of two knot RBMs and the host's slopes: twice the full path's chain scratch. */
    @Override
    public long bytesPerChain() {
        return 2 * TemperedRbm.bytesPerChain(target()) + 16;
    }

    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        return new TemperedRbm(target(), base).exactTargetSamples(count, seed);
    }

    /** Its kernels move every chain at one β: the annealing methods run on it (RbmProblem.pathRefusal). */
    @Override
    public boolean supportsTempering() {
        return false;
    }
}
