package org.logz.model.mixture;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.Likelihood;
import org.logz.model.PointwiseLikelihood;

/**
 * The posterior of a Gaussian mixture's component means given data (DESIGN §5): observations {@code y_i ∈ R^d},
 * {@code p(y_i | μ) = Σ_k w_k N(y_i; μ_k, σ² I)} with K components of known weights w and known isotropic standard
 * deviation σ, and independent priors {@code μ_k ~ N(m, s² I)}. The parameters θ = (μ_1, ..., μ_K), K·d numbers; the
 * evidence {@code Z = ∫ p(μ) Π_i p(y_i | μ) dμ}, exact by {@link MixtureExact} for small n. The likelihood factors
 * over the observations, so data annealing enters them one at a time.
 */
public final class Mixture implements PointwiseLikelihood {
    /** The largest magnitude of the data and priors, and of their ratio to σ, that stays finite in float32 squares. */
    static final double MAX_SCALE = 1e15;

    /** The most parameters K·d. */
    public static final int MAX_PARAMETERS = 100;
    /** The most observations. */
    public static final int MAX_POINTS = 1_000_000;
    private static final double LOG_2PI = Math.log(2 * Math.PI);

    private final double[] y;
    private final int n;
    private final int dim;
    private final double[] logWeights;
    private final double sigma;
    private final double[] priorMean;
    private final double priorSd;
    private final String name;

    /**
     * @param y         observations, n × d row-major
     * @param dim       d
     * @param weights   the K component weights, positive, summing to 1 (within 1e-9)
     * @param sigma     each component's standard deviation in every coordinate
     * @param priorMean m, the prior mean of every μ_k (d values)
     * @param priorSd   s, the prior standard deviation of every coordinate of every μ_k
     */
    public Mixture(double[] y, int dim, double[] weights, double sigma, double[] priorMean, double priorSd, String name) {
        if (dim < 1 || y.length == 0 || y.length % dim != 0) {
            throw new UserException(name + ": the data must be n × d with n, d ≥ 1, got " + y.length + " values for d = "
                    + dim);
        }
        this.n = y.length / dim;
        if (n > MAX_POINTS) {
            throw new UserException(name + ": " + n + " observations exceed the " + MAX_POINTS + " logz reads");
        }
        int k = weights.length;
        if (k < 1 || (long) k * dim > MAX_PARAMETERS) {
            throw new UserException(name + ": " + k + " components × " + dim + " dimensions = " + (long) k * dim
                    + " parameters; logz takes 1 to " + MAX_PARAMETERS);
        }
        double total = 0;
        for (double w : weights) {
            if (!(w > 0 && w <= 1)) {
                throw new UserException(name + ": the component weights must lie in (0, 1], got " + Arrays.toString(weights));
            }
            total += w;
        }
        if (!(Math.abs(total - 1) <= 1e-9)) {
            throw new UserException(name + ": the component weights sum to " + total + ", not 1");
        }
        if (!(sigma > 0 && sigma < Double.POSITIVE_INFINITY && priorSd > 0 && priorSd < Double.POSITIVE_INFINITY)) {
            throw new UserException(name + ": sigma and prior_sd must be positive and finite, got " + sigma + " and "
                    + priorSd);
        }
        if (priorMean.length != dim) {
            throw new UserException(name + ": prior_mean has " + priorMean.length + " values, the data " + dim
                    + " dimensions");
        }
        for (double v : y) {
            if (!Double.isFinite(v)) {
                throw new UserException(name + ": the data hold a non-finite value (" + v + ")");
            }
        }
        for (double v : priorMean) {
            if (!Double.isFinite(v)) {
                throw new UserException(name + ": prior_mean holds a non-finite value (" + v + ")");
            }
        }
        double spread = priorSd;
        for (double v : y) {
            spread = Math.max(spread, Math.abs(v));
        }
        for (double v : priorMean) {
            spread = Math.max(spread, Math.abs(v));
        }
        // the particles are float32 and the likelihoods squares of (y - μ)/σ: beyond this ratio they overflow or
        // round away, and every estimate would stop on a non-finite slope instead
        if (!(spread / sigma <= MAX_SCALE && spread <= MAX_SCALE && sigma >= 1 / MAX_SCALE)) {
            throw new UserException(name + ": the data, prior mean and prior_sd reach " + spread + " against sigma = "
                    + sigma + "; logz needs both within 1e15 in magnitude and their ratio to sigma at most 1e15 (rescale "
                    + "the data)");
        }
        this.y = y.clone();
        this.dim = dim;
        this.logWeights = Arrays.stream(weights).map(Math::log).toArray();
        this.sigma = sigma;
        this.priorMean = priorMean.clone();
        this.priorSd = priorSd;
        this.name = name;
    }

    @Override
    public String fingerprint() {
        return "mixture " + n + " " + dim + " " + ContentDigest.of(y, logWeights, new double[] {sigma, priorSd}, priorMean);
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%s (Gaussian mixture posterior: %d observations in %d dimension%s, "
                + "K = %d, σ = %s, means ~ N(m, %s²))", name, n, dim, dim > 1 ? "s" : "", components(), sigma, priorSd);
    }

    public String name() {
        return name;
    }

    /** K. */
    public int components() {
        return logWeights.length;
    }

    /** d. */
    public int dimension() {
        return dim;
    }

    /** Coordinate j of observation i. */
    public double y(int i, int j) {
        return y[i * dim + j];
    }

    public double logWeight(int k) {
        return logWeights[k];
    }

    public double sigma() {
        return sigma;
    }

    /** Coordinate j of the prior mean m. */
    public double priorMean(int j) {
        return priorMean[j];
    }

    public double priorScale() {
        return priorSd;
    }

    @Override
    public int points() {
        return n;
    }

    @Override
    public String pointName() {
        return "observations";
    }

    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        for (int k = 0; k < components(); k++) {
            for (int j = 0; j < dim; j++) {
                names.add("mu" + (k + 1) + "[" + j + "]");
            }
        }
        return names;
    }

    @Override
    public double[] priorMean() {
        double[] out = new double[components() * dim];
        for (int k = 0; k < components(); k++) {
            System.arraycopy(priorMean, 0, out, k * dim, dim);
        }
        return out;
    }

    @Override
    public double[] priorSd() {
        double[] out = new double[components() * dim];
        Arrays.fill(out, priorSd);
        return out;
    }

    /** {@code log Σ_k w_k N(y_i; μ_k, σ² I)}, the components' terms combined with their largest factored out. */
    @Override
    public double logLikelihood(int point, double[] theta) {
        int kk = components();
        double[] terms = new double[kk];
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < kk; k++) {
            double sq = 0;
            for (int j = 0; j < dim; j++) {
                double r = y[point * dim + j] - theta[k * dim + j];
                sq += r * r;
            }
            terms[k] = logWeights[k] - sq / (2 * sigma * sigma);
            max = Math.max(max, terms[k]);
        }
        double sum = 0;
        for (int k = 0; k < kk; k++) {
            sum += Math.exp(terms[k] - max);
        }
        return max + Math.log(sum) - normalizer(dim, sigma);
    }

    /** {@code d (log σ + ½ log 2π)}, the Gaussian's normalizing term of every point, as every backend subtracts it. */
    public static double normalizer(int d, double sigma) {
        return d * (Math.log(sigma) + 0.5 * LOG_2PI);
    }

    @Override
    public OptionalDouble exactLogLikelihood(double[] theta) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += logLikelihood(i, theta);
        }
        return OptionalDouble.of(sum);
    }

    @Override
    public boolean hasExactLikelihood() {
        return true;
    }

    /** None: the likelihood is exact, never estimated. */
    @Override
    public List<Likelihood.Proposal> proposals() {
        return List.of();
    }

    /** K terms per observation. */
    @Override
    public long observations() {
        return (long) n * components();
    }

    @Override
    public String toString() {
        return name;
    }
}
