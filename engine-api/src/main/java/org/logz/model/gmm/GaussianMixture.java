package org.logz.model.gmm;

import java.util.Optional;

import org.logz.base.UserException;
import org.logz.kernel.HmcModel;
import org.logz.kernel.HmcSettings;
import org.logz.numeric.LogSpace;
import org.logz.random.NormalStream;
import org.logz.random.StreamTag;

/**
 * A mixture of two d-dimensional isotropic Gaussians as a tempered target with a closed-form log Z (RTS §4.1, Fig. 2;
 * its appendix E.1 is not in the text we have, so the parameters are ours; DESIGN §5, "Gaussian mixture"):
 * <pre>  f(x) = w exp(−|x − μ1|²/(2 s1²)) + (1 − w) exp(−|x − μ2|²/(2 s2²)),   μ1 = −μ2 = (sep/2)/√d · (1, ..., 1),
 *   p_0 = N(0, s0² I), f_0(x) = exp(−|x|²/(2 s0²)),   log f_β = (1 − β) log f_0 + β log f,
 *   Z = w (2π s1²)^{d/2} + (1 − w)(2π s2²)^{d/2},   Z_0 = (2π s0²)^{d/2}.</pre>
 * The modes are {@code sep} apart; the target's weight of the first is {@code w (2π s1²)^{d/2} / Z}. Sampled by HMC
 * ({@link HmcModel}) with the gradient
 * {@code ∇ log f_β = −(1 − β) x/s0² − β Σ_c r_c (x − μ_c)/s_c²}, r_c the components' responsibilities.
 *
 * @param dimension d
 * @param separation |μ1 − μ2|
 * @param sigma1 s1
 * @param sigma2 s2
 * @param weight w
 * @param sigma0 the base's standard deviation s0
 * @param hmc the sampler's settings
 */
public record GaussianMixture(int dimension, double separation, double sigma1, double sigma2, double weight,
                              double sigma0, HmcSettings hmc) implements HmcModel {
    /** Largest d: a state is one float32 row. */
    public static final int MAX_DIMENSION = 100_000;
    /** Largest separation and scale: states stay far inside float32's range, log densities finite. */
    public static final double MAX_SCALE = 1e4;
    /** Smallest standard deviation. */
    public static final double MIN_SIGMA = 1e-3;
    private static final double LOG_TWO_PI = Math.log(2 * Math.PI);

    public GaussianMixture {
        if (dimension < 1 || dimension > MAX_DIMENSION) {
            throw new UserException("gmm dimension d must be an integer from 1 to " + MAX_DIMENSION + ", got " + dimension);
        }
        if (!(separation >= 0 && separation <= MAX_SCALE)) {
            throw new UserException("gmm separation must lie in [0, " + MAX_SCALE + "], got " + separation);
        }
        for (double s : new double[] {sigma1, sigma2, sigma0}) {
            if (!(s >= MIN_SIGMA && s <= MAX_SCALE)) {
                throw new UserException("gmm standard deviations s0, s1, s2 must lie in [" + MIN_SIGMA + ", " + MAX_SCALE
                        + "], got " + s);
            }
        }
        if (!(weight > 0 && weight < 1)) {
            throw new UserException("gmm weight w must lie strictly between 0 and 1, got " + weight);
        }
        if (hmc == null) {
            throw new UserException("gmm needs HMC settings");
        }
    }

    /** d = 10, modes 6 apart, s1 = 1, s2 = 0.7, w = 0.5, base s0 = 3, HMC with the default settings. */
    public static GaussianMixture defaults() {
        return new GaussianMixture(10, 6, 1, 0.7, 0.5, 3, HmcSettings.defaults());
    }

    /** This mixture with other HMC settings. */
    public GaussianMixture with(HmcSettings settings) {
        return new GaussianMixture(dimension, separation, sigma1, sigma2, weight, sigma0, settings);
    }

    /** Coordinate i of μ1 (μ2 = −μ1): {@code (sep/2)/√d}, the same in every coordinate. */
    public double meanCoordinate() {
        return separation / 2 / Math.sqrt(dimension);
    }

    /** log of component c's mass in Z, {@code log w + (d/2) log(2π s1²)} or its second form. */
    private double logMass(int c) {
        double s = c == 0 ? sigma1 : sigma2;
        return Math.log(c == 0 ? weight : 1 - weight) + 0.5 * dimension * (LOG_TWO_PI + 2 * Math.log(s));
    }

    /** The closed form {@code log Z = logaddexp(log w + (d/2) log 2πs1², log(1 − w) + (d/2) log 2πs2²)}. */
    public double logZ() {
        return LogSpace.logAddExp(logMass(0), logMass(1));
    }

    @Override
    public double logZ0() {
        return 0.5 * dimension * (LOG_TWO_PI + 2 * Math.log(sigma0));
    }

    /** {@code log f(x)} of the target and, with {@code grad} non-null, {@code grad += scale · ∇ log f}. */
    private double logTarget(double[] x, double[] grad, double scale) {
        double m = meanCoordinate();
        double q1 = 0;
        double q2 = 0;
        for (int i = 0; i < dimension; i++) {
            q1 += (x[i] - m) * (x[i] - m);
            q2 += (x[i] + m) * (x[i] + m);
        }
        double a = Math.log(weight) - q1 / (2 * sigma1 * sigma1);
        double b = Math.log(1 - weight) - q2 / (2 * sigma2 * sigma2);
        double lf = LogSpace.logAddExp(a, b);
        if (grad != null) {
            double r1 = Math.exp(a - lf) / (sigma1 * sigma1);
            double r2 = Math.exp(b - lf) / (sigma2 * sigma2);
            for (int i = 0; i < dimension; i++) {
                grad[i] -= scale * (r1 * (x[i] - m) + r2 * (x[i] + m));
            }
        }
        return lf;
    }

    /** {@code log f_0(x) = −|x|²/(2 s0²)}. */
    private double logBase(double[] x) {
        double q = 0;
        for (int i = 0; i < dimension; i++) {
            q += x[i] * x[i];
        }
        return -q / (2 * sigma0 * sigma0);
    }

    @Override
    public double logDensity(double beta, double[] x, double[] grad) {
        if (grad != null) {
            double c = -(1 - beta) / (sigma0 * sigma0);
            for (int i = 0; i < dimension; i++) {
                grad[i] = c * x[i];
            }
        }
        return (1 - beta) * logBase(x) + beta * logTarget(x, grad, beta);
    }

    /** {@code log f(x) − log f_0(x)}, the same at every β. */
    @Override
    public double slope(double beta, double[] x) {
        return logTarget(x, null, 0) - logBase(x);
    }

    /** {@code x = s0 z}, z the normals of {@code (particle, step)} on tag BASE. */
    @Override
    public void sampleBase(long seed, int particle, int step, double[] out) {
        NormalStream z = new NormalStream(seed, particle, step, StreamTag.BASE);
        for (int i = 0; i < dimension; i++) {
            out[i] = sigma0 * z.at(i);
        }
    }

    /**
     * Exact target samples: row r picks the first component when the uniform of block {@code (d, r, 0, EXACT)} is below
     * its mass {@code w (2π s1²)^{d/2} / Z}, then {@code μ_c + s_c z} with z the normals of {@code (r, 0)} on tag EXACT.
     */
    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        if ((long) count * dimension > Integer.MAX_VALUE - 8) {
            throw new UserException(count + " samples of " + dimension + " values do not fit one Java array; use fewer chains");
        }
        double first = Math.exp(logMass(0) - logZ());
        double m = meanCoordinate();
        float[] out = new float[count * dimension];
        for (int r = 0; r < count; r++) {
            boolean one = NormalStream.uniform(seed, dimension, r, 0, StreamTag.EXACT) < first;
            NormalStream z = new NormalStream(seed, r, 0, StreamTag.EXACT);
            for (int i = 0; i < dimension; i++) {
                out[r * dimension + i] = (float) (one ? m + sigma1 * z.at(i) : -m + sigma2 * z.at(i));
            }
        }
        return Optional.of(out);
    }

    @Override
    public String description() {
        return String.format(java.util.Locale.ROOT, "Gaussian mixture d=%d, sep=%s, s1=%s, s2=%s, w=%s from N(0, %s²I), %s",
                dimension, separation, sigma1, sigma2, weight, sigma0, hmc.describe());
    }

    /** log f_β is linear in β: {@code (1 − β) log f_0 + β log f}. */
    @Override
    public boolean linearPath() {
        return true;
    }
}
