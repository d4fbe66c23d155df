package org.logz.model.latent;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.random.NormalStream;
import org.logz.random.StreamTag;

/**
 * The stochastic volatility model of the AISEL issue (DESIGN §5): {@code y_t = exp(h_t / 2) ε_t},
 * {@code h_t = μ + φ (h_{t-1} - μ) + σ η_t}, h_1 from the stationary N(μ, σ²/(1-φ²)), ε and η standard normal;
 * θ = (μ, ψ = atanh φ, λ = log σ) with independent priors {@code μ ~ N(0, 2²)}, {@code ψ ~ N(2, 1)} (φ near 0.96,
 * the persistence of daily returns) and {@code λ ~ N(-1.5, 1)}. The likelihood has no closed form; a bootstrap
 * particle filter estimates it without bias (Gordon et al. 1993; Del Moral 2004).
 *
 * <p>The filter every backend runs (sv_filter.cu on the device): N particles; at t = 0 they are drawn from the
 * stationary law, {@code h_j = μ + σ cosh(ψ) ξ_j} (σ/√(1-φ²) = σ cosh ψ, stable for any ψ); at every t the log
 * weights {@code -½ (log 2π + h_j + y_t² e^{-h_j})} add the log of their mean to the estimate (log-sum-exp
 * against their maximum, summed over j in order); for t ≥ 1 the particles are first resampled systematically
 * with the uniform of block {@code (t, particle, step, LATENT_RESAMPLE)} and moved
 * {@code h_j = μ + φ (h_{a_j} - μ) + σ ξ}. ξ for particle j at time t is normal {@code q = t·N + j} of
 * {@link NormalStream} {@code (particle, step, LATENT)}.
 */
public record StochasticVolatility(double[] y, String name) implements LatentModel {
    @Override
    public String fingerprint() {
        return "sv " + y.length + " " + ContentDigest.of(y);
    }

    /** Bound on |y_t|: returns beyond it are not returns. */
    public static final double MAX_ABS_RETURN = 1e6;
    /** Bound below on |y_t| (see the constructor). */
    public static final double MIN_ABS_RETURN = 1e-30;
    private static final double LOG_2PI = Math.log(2 * Math.PI);
    private static final double[] PRIOR_MEAN = {0, 2, -1.5};
    private static final double[] PRIOR_SD = {2, 1, 1};

    public StochasticVolatility {
        if (y.length == 0) {
            throw new UserException(name + ": no observations (T = 0)");
        }
        for (int t = 0; t < y.length; t++) {
            if (!(Math.abs(y[t]) <= MAX_ABS_RETURN)) {
                throw new UserException(name + ": y[" + t + "] is " + y[t] + "; observations must be finite and at most "
                        + MAX_ABS_RETURN + " in size");
            }
            // N(y; 0, e^h) at y = 0 grows without bound as h → -∞: the filter's weights then have no usable variance
            if (Math.abs(y[t]) < MIN_ABS_RETURN) {
                throw new UserException(name + ": y[" + t + "] is " + y[t] + "; returns smaller than " + MIN_ABS_RETURN
                        + " in size (exact zeros included) make the SV likelihood unbounded in h_t; drop them or add a "
                        + "small offset");
            }
        }
        requireScaleWithinPrior(y, name);
        y = y.clone();
    }

    /**
     * The largest distance, in prior standard deviations of μ, between the returns' log mean square (the level of
     * h_t that explains them) and μ's prior mean. Beyond it the posterior sits where the prior has no mass: the
     * hostile review's returns scaled to 1e-27 (log mean square -124, 62 prior sd) were accepted and gave an ETA of 36 h.
     */
    static final double MAX_SCALE_SD = 10;

    private static void requireScaleWithinPrior(double[] y, String name) {
        double meanSquare = 0;
        for (double v : y) {
            meanSquare += v * v / y.length;
        }
        double level = Math.log(meanSquare);
        if (Math.abs(level - PRIOR_MEAN[0]) > MAX_SCALE_SD * PRIOR_SD[0]) {
            throw new UserException(String.format(Locale.ROOT, "%s: the returns' log mean square is %.1f, %.0f prior "
                    + "standard deviations from μ's prior N(%.0f, %.0f²): the prior puts no mass where the data are; "
                    + "rescale the returns (percent returns have a log mean square near 0)", name, level,
                    Math.abs(level - PRIOR_MEAN[0]) / PRIOR_SD[0], PRIOR_MEAN[0], PRIOR_SD[0]));
        }
    }

    @Override
    public double[] y() {
        return y.clone();
    }

    /** T. */
    public int length() {
        return y.length;
    }

    @Override
    public String description() {
        return "stochastic volatility " + name + " (" + y.length + " observations)";
    }

    @Override
    public List<String> parameterNames() {
        return List.of("mu", "atanh_phi", "log_sigma");
    }

    @Override
    public double[] priorMean() {
        return PRIOR_MEAN.clone();
    }

    @Override
    public double[] priorSd() {
        return PRIOR_SD.clone();
    }

    @Override
    public long observations() {
        return y.length;
    }

    @Override
    public OptionalDouble exactLogLikelihood(double[] theta) {
        return OptionalDouble.empty();
    }

    /** The bootstrap particle filter. */
    @Override
    public List<Likelihood.Proposal> proposals() {
        return List.of(Likelihood.Proposal.BOOTSTRAP);
    }

    @Override
    public boolean hasExactLikelihood() {
        return false;
    }

    /**
     * The bootstrap filter's estimate of {@code log p(y | θ)} with {@code inner} particles (see the class comment);
     * {@code h}, {@code next} and {@code logWeight} (each at least {@code inner} long) are scratch.
     */
    public double logLikelihoodEstimate(double[] theta, int inner, long seed, int particle, int step, double[] h,
                                        double[] next, double[] logWeight) {
        double mu = theta[0];
        double phi = Math.tanh(theta[1]);
        double sigma = Math.exp(theta[2]);
        double stationary = sigma * Math.cosh(theta[1]);
        NormalStream normals = new NormalStream(seed, particle, step, StreamTag.LATENT);
        double sum = 0;
        for (int t = 0; t < y.length; t++) {
            if (t == 0) {
                for (int j = 0; j < inner; j++) {
                    h[j] = mu + stationary * normals.at(j);
                }
            } else {
                double u = NormalStream.uniform(seed, t, particle, step, StreamTag.LATENT_RESAMPLE);
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j < inner; j++) {
                    max = Math.max(max, logWeight[j]);
                }
                double total = 0;
                for (int j = 0; j < inner; j++) {
                    total += Math.exp(logWeight[j] - max);
                }
                // systematic resampling: ancestor of slot k is the first j whose cumulative weight exceeds (u + k) / N
                double cumulative = 0;
                int k = 0;
                for (int j = 0; j < inner && k < inner; j++) {
                    cumulative += Math.exp(logWeight[j] - max) / total;
                    while (k < inner && (u + k) / inner < cumulative) {
                        next[k++] = h[j];
                    }
                }
                while (k < inner) {
                    next[k++] = h[inner - 1];
                }
                for (int j = 0; j < inner; j++) {
                    h[j] = mu + phi * (next[j] - mu) + sigma * normals.at((long) t * inner + j);
                }
            }
            double max = Double.NEGATIVE_INFINITY;
            double yy = y[t] * y[t];
            for (int j = 0; j < inner; j++) {
                logWeight[j] = -0.5 * (LOG_2PI + h[j] + yy * Math.exp(-h[j]));
                max = Math.max(max, logWeight[j]);
            }
            if (!(max > Double.NEGATIVE_INFINITY)) {
                return Double.NEGATIVE_INFINITY;
            }
            double total = 0;
            for (int j = 0; j < inner; j++) {
                total += Math.exp(logWeight[j] - max);
            }
            sum += max + Math.log(total / inner);
        }
        return sum;
    }
}
