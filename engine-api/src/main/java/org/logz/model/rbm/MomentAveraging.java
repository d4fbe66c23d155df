package org.logz.model.rbm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.numeric.Decimal;
import org.logz.numeric.Parameters;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Builds the moment-averages path of an RBM ({@link RbmSpline}; Grosse, Maddison &amp; Salakhutdinov 2013). The RBM's
 * sufficient statistics are {@code s = (v, h, v hᵀ)}; the base rate's moments are exact ({@code σ(a0)}, ½,
 * {@code σ(a0)·½}) and the target's are read from chains annealed to β = 1 on the geometric path and then swept there,
 * the hidden units Rao-Blackwellized ({@code σ(b + vW)}). Knot i at {@code β_i = i/(K+1)} is the RBM whose moments are
 * {@code s̄_i = (1-β_i) s_0 + β_i s_1}: the maximum of {@code θᵀs̄ - log Z(θ)}, concave in θ, found by stochastic
 * gradient ascent {@code θ += ε (s̄ - E_θ[s])} with persistent chains (PCD) and the average of the second half's
 * iterates (Polyak). Each knot starts from the previous knot's parameters and chains. The ARM paper's reference fitted 9
 * knots with 1000 chains; the default here is lighter ({@code mas:knots=9,chains=100,updates=300}).
 */
public final class MomentAveraging {
    /**
     * @param knots        interior knots K (the path has K + 1 segments)
     * @param chains       chains of the target's moments and of each knot's fit
     * @param updates      gradient steps per knot
     * @param anneal       steps of the annealing run that brings the chains to the target
     * @param sweeps       sweeps at β = 1 whose states give the target's moments
     * @param learningRate the step ε
     */
    public record Settings(int knots, int chains, int updates, int anneal, int sweeps, double learningRate) {
        public Settings {
            if (knots < 0 || knots > 1000) {
                throw new UserException("--path mas needs 0 to 1000 interior knots, got " + knots);
            }
            if (chains < 2 || updates < 2 || anneal < 1 || sweeps < 1) {
                throw new UserException("--path mas needs at least 2 chains, 2 updates, 1 annealing step and 1 sweep, got "
                        + chains + ", " + updates + ", " + anneal + " and " + sweeps);
            }
            if (!(learningRate > 0 && learningRate <= 1)) {
                throw new UserException("--path mas: the learning rate must lie in (0, 1], got " + learningRate);
            }
        }

        /** {@code mas[:knots=9,chains=100,updates=300,anneal=500,sweeps=100,rate=0.05]}. */
        public static Settings parse(String spec) {
            var v = Parameters.of("--path", spec, "mas[:knots=K,chains=C,updates=U,anneal=A,sweeps=S,rate=R]");
            for (String key : v.keySet()) {
                if (!List.of("knots", "chains", "updates", "anneal", "sweeps", "rate").contains(key)) {
                    throw new UserException("--path " + spec + ": unknown key '" + key
                            + "'; use knots, chains, updates, anneal, sweeps or rate");
                }
            }
            try {
                return new Settings(Decimal.parseInt(v.getOrDefault("knots", "9")),
                        Decimal.parseInt(v.getOrDefault("chains", "100")),
                        Decimal.parseInt(v.getOrDefault("updates", "300")),
                        Decimal.parseInt(v.getOrDefault("anneal", "500")),
                        Decimal.parseInt(v.getOrDefault("sweeps", "100")),
                        Decimal.parse(v.getOrDefault("rate", "0.05")).orElseThrow(NumberFormatException::new));
            } catch (NumberFormatException e) {
                throw new UserException("--path " + spec + ": write mas[:knots=K,chains=C,updates=U,anneal=A,sweeps=S,"
                        + "rate=R] with whole numbers K, C, U, A, S and a decimal R");
            }
        }

        /** Chain-sweeps the fit runs: the annealing run and sweeps at β = 1, then every knot's updates. */
        public long sweepsRun() {
            return (long) chains * (anneal + sweeps + (long) knots * updates);
        }
    }

    private MomentAveraging() {
    }

    /** The path of {@code target} from {@code base}, its knots fitted on {@code backend} under a key from {@code seed}. */
    public static RbmSpline fit(Rbm target, BaseRate base, Settings s, ParticleBackend backend, long seed) {
        long started = System.nanoTime();
        if (s.knots() == 0) {
            // no interior knot: the geometric path itself, nothing to fit
            return new RbmSpline(List.of(RbmSpline.baseRbm(base, target.hidden()), target), new double[] {0, 1}, base,
                    "no interior knots: the geometric path");
        }
        int n = target.visible();
        int h = target.hidden();
        long key = Philox.derive(seed, StreamTag.PILOT, 2);
        int m = s.chains();
        List<Rbm> knots = new ArrayList<>();
        knots.add(RbmSpline.baseRbm(base, h));
        double[] betas = new double[s.knots() + 2];
        int step = 0;
        try (ParticleMatrix x = backend.matrix(m, n); ParticleVector logW = backend.vector(m)) {
            double[] targetMoments;
            try (TemperedKernel k = Kernels.tempered(backend, new TemperedRbm(target, base))) {
                k.sampleBase(x, m, key, step++);
                backend.fill(logW, 0, m, 0.0);
                for (int i = 1; i <= s.anneal(); i++) {
                    k.anneal(x, m, (i - 1.0) / s.anneal(), (double) i / s.anneal(), logW, 1, key, step++);
                }
                targetMoments = new double[n + h + n * h];
                for (int t = 0; t < s.sweeps(); t++) {
                    k.transition(x, m, Betas.of(1.0), 1, key, step++);
                    add(targetMoments, moments(backend.download(x, m), m, target), 1.0 / s.sweeps());
                }
            }
            double[] baseMoments = baseMoments(base, h);
            try (TemperedKernel k = Kernels.tempered(backend, new TemperedRbm(target, base))) {
                k.sampleBase(x, m, key, step++);
            }
            Rbm theta = knots.get(0);
            for (int i = 1; i <= s.knots(); i++) {
                double beta = (double) i / (s.knots() + 1);
                betas[i] = beta;
                double[] goal = new double[targetMoments.length];
                for (int e = 0; e < goal.length; e++) {
                    goal[e] = (1 - beta) * baseMoments[e] + beta * targetMoments[e];
                }
                theta = fitKnot(theta, base, goal, s, backend, x, key, step);
                step += s.updates();
                knots.add(theta);
            }
        }
        betas[betas.length - 1] = 1;
        knots.add(target);
        return new RbmSpline(knots, betas, base, String.format(Locale.ROOT, "%d knots fitted by %d updates of %d chains "
                + "at rate %s to moments from %d annealing steps and %d sweeps: %d chain-sweeps in %.1f s", s.knots(),
                s.updates(), m, s.learningRate(), s.anneal(), s.sweeps(), s.sweepsRun(), (System.nanoTime() - started) * 1e-9));
    }

    /** PCD toward {@code goal} from {@code start}; the chains in {@code x} carry over; the second half averaged. */
    private static Rbm fitKnot(Rbm start, BaseRate base, double[] goal, Settings s, ParticleBackend backend, ParticleMatrix x, long key,
                               int firstStep) {
        int n = start.visible();
        int h = start.hidden();
        int m = s.chains();
        double[] theta = pack(start);
        double[] average = new double[theta.length];
        int averaged = 0;
        for (int u = 0; u < s.updates(); u++) {
            Rbm current = unpack(theta, n, h);
            try (TemperedKernel k = Kernels.tempered(backend, new TemperedRbm(current, base))) {
                k.transition(x, m, Betas.of(1.0), 1, key, firstStep + u);
            }
            double[] model = moments(backend.download(x, m), m, current);
            for (int e = 0; e < theta.length; e++) {
                theta[e] += s.learningRate() * (goal[e] - model[e]);
            }
            requireFinite(theta);
            if (u >= s.updates() / 2) {
                add(average, theta, 1);
                averaged++;
            }
        }
        for (int e = 0; e < average.length; e++) {
            average[e] /= averaged;
        }
        return unpack(average, n, h);
    }

    private static void requireFinite(double[] theta) {
        for (double v : theta) {
            if (!Double.isFinite(v) || Math.abs(v) > 1e4) {
                throw new UserException("--path mas: the fit of a knot diverged; lower its rate (mas:rate=...)");
            }
        }
    }

    /** {@code (σ(a0), ½, σ(a0)·½)}: the base rate's RBM has free hidden coins. */
    static double[] baseMoments(BaseRate base, int h) {
        int n = base.visible();
        double[] out = new double[n + h + n * h];
        float[] a0 = base.logOdds();
        for (int v = 0; v < n; v++) {
            double p = 1 / (1 + Math.exp(-a0[v]));
            out[v] = p;
            for (int j = 0; j < h; j++) {
                out[n + h + v * h + j] = 0.5 * p;
            }
        }
        Arrays.fill(out, n, n + h, 0.5);
        return out;
    }

    /** The mean statistics (v, σ(b + vW), v σᵀ) of {@code count} states, hidden units Rao-Blackwellized. */
    static double[] moments(float[] states, int count, Rbm rbm) {
        int n = rbm.visible();
        int h = rbm.hidden();
        float[] gw = new float[n * h];
        float[] ga = new float[n];
        float[] gb = new float[h];
        Gradient.accumulate(states, count, n, h, rbm.weights(), rbm.hiddenBias(), 1f / count, gw, ga, gb);
        return concat(ga, gb, gw);
    }

    private static void add(double[] sum, double[] values, double weight) {
        for (int e = 0; e < sum.length; e++) {
            sum[e] += weight * values[e];
        }
    }

    /** (a, b, W) in the moments' order. */
    private static double[] pack(Rbm r) {
        return concat(r.visibleBias(), r.hiddenBias(), r.weights());
    }

    /** Visible, hidden and weight entries one after the other, in float64. */
    private static double[] concat(float[] visible, float[] hidden, float[] weights) {
        double[] out = new double[visible.length + hidden.length + weights.length];
        int at = 0;
        for (float[] part : new float[][] {visible, hidden, weights}) {
            for (float v : part) {
                out[at++] = v;
            }
        }
        return out;
    }

    private static Rbm unpack(double[] theta, int n, int h) {
        float[] a = new float[n];
        float[] b = new float[h];
        float[] w = new float[n * h];
        for (int v = 0; v < n; v++) {
            a[v] = (float) theta[v];
        }
        for (int j = 0; j < h; j++) {
            b[j] = (float) theta[n + j];
        }
        for (int e = 0; e < w.length; e++) {
            w[e] = (float) theta[n + h + e];
        }
        return new Rbm(n, h, w, a, b);
    }
}
