package org.logz.model.latent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.PointwiseLikelihood;
import org.logz.model.Likelihood;
import org.logz.numeric.GaussHermite;
import org.logz.numeric.GaussLegendre;
import org.logz.numeric.LogSpace;
import org.logz.random.NormalStream;
import org.logz.random.StreamTag;

/**
 * The logistic random-intercept GLMM of the AISEL issue (DESIGN §5): {@code y_ij ~ Bernoulli(σ(x_ijᵀβ + u_i))},
 * {@code u_i ~ N(0, τ²)} for groups i, priors {@code β_k ~ N(0, 5²)} and {@code log τ ~ N(0, 1)};
 * θ = (β_1..β_p, log τ). The likelihood factors over groups, {@code p(y | θ) = Π_i ∫ Π_j p(y_ij | u) N(u; 0, τ²) du},
 * each factor a one-dimensional integral: estimated without bias by importance sampling over u_i
 * ({@link Likelihood.Proposal}), computed exactly by adaptive Gauss-Hermite quadrature around its Laplace mode.
 *
 * <p>The scalar steps are shared by every backend (cpu here, glmm_likelihood.cu on the device), in this order:
 * the Laplace mode of group i by Newton's method from u = 0 on {@code g(u) = Σ_j [y η - softplus(η)] - u²/(2τ²)},
 * {@code η = a_j + u}, {@code a_j = x_ijᵀβ} (at most {@value #NEWTON_STEPS} steps, stopping when the step is below
 * 1e-10 (1 + |u|), halving any step that lowers g), and the Laplace scale {@code s = (-g''(û))^(-1/2)}.
 */
public final class Glmm implements PointwiseLikelihood {
    /** Prior standard deviation of each regression coefficient. */
    public static final double BETA_PRIOR_SD = 5;
    /** Most Newton steps for a group's Laplace mode. */
    public static final int NEWTON_STEPS = 50;
    /** Gauss-Hermite nodes of the exact group likelihood: the integrand is smooth and log-concave. */
    public static final int QUADRATURE_NODES = 40;
    /** Nodes of the rule that checks the {@value #QUADRATURE_NODES}-node one. */
    static final int CHECK_NODES = 24;
    /** The largest difference (nats) between the two Gauss-Hermite rules taken as converged. */
    static final double RULE_TOLERANCE = 1e-9;
    /** Gauss-Legendre nodes per panel of the fallback rule. */
    static final int PANEL_NODES = 24;
    /** Bound on |x_ij|: a linear predictor beyond e^30 makes every likelihood 0 or 1 in float64. */
    public static final double MAX_ABS_COVARIATE = 1e6;
    /**
     * Bound on p: the random-walk moves adapt a p+1-dimensional covariance from the particle cloud, which a
     * thousand particles cannot estimate far beyond this (and each likelihood costs n·p).
     */
    public static final int MAX_COVARIATES = 100;
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    private final String name;
    private final int p;
    private final int groups;
    private final double[] x;
    private final int[] y;
    private final int[] offsets;

    @Override
    public String fingerprint() {
        return "glmm " + p + " " + groups + " " + ContentDigest.of(x, y, offsets);
    }

    /**
     * @param x     covariates, n × p row-major (an intercept is a column of ones, which the file supplies)
     * @param y     responses 0/1
     * @param group group index 0..m-1 of each observation; every group in 0..max must have observations
     */
    public Glmm(double[] x, int[] y, int[] group, int p, String name) {
        int n = y.length;
        if (n == 0) {
            throw new UserException(name + ": no observations (n = 0)");
        }
        if (p < 1 || x.length != (long) n * p || group.length != n) {
            throw new UserException(name + ": X has " + x.length + " entries and group " + group.length + " for " + n
                    + " responses and " + p + " covariates");
        }
        if (p > MAX_COVARIATES) {
            throw new UserException(name + ": " + p + " covariates; a GLMM here has at most " + MAX_COVARIATES);
        }
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (y[i] != 0 && y[i] != 1) {
                throw new UserException(name + ": y[" + i + "] is " + y[i] + "; responses are 0 or 1");
            }
            // groups number 0..m-1 without gaps, so every label is below n (checked before anything is sized by it)
            if (group[i] < 0 || group[i] >= n) {
                throw new UserException(name + ": group[" + i + "] is " + group[i] + "; groups are 0, 1, ..., m-1 without "
                        + "gaps, so below the " + n + " observations");
            }
            m = Math.max(m, group[i] + 1);
        }
        for (int k = 0; k < x.length; k++) {
            if (!(Math.abs(x[k]) <= MAX_ABS_COVARIATE)) {
                throw new UserException(name + ": X[" + k / p + "][" + k % p + "] is " + x[k] + "; covariates must be "
                        + "finite and at most " + MAX_ABS_COVARIATE + " in size");
            }
        }
        int[] counts = new int[m + 1];
        for (int g : group) {
            counts[g + 1]++;
        }
        for (int g = 0; g < m; g++) {
            if (counts[g + 1] == 0) {
                throw new UserException(name + ": group " + g + " has no observations; number the groups 0.." + (m - 1)
                        + " without gaps");
            }
            counts[g + 1] += counts[g];
        }
        this.offsets = counts.clone();
        this.x = new double[n * p];
        this.y = new int[n];
        int[] next = Arrays.copyOf(counts, m);
        for (int i = 0; i < n; i++) {
            int at = next[group[i]]++;
            System.arraycopy(x, i * p, this.x, at * p, p);
            this.y[at] = y[i];
        }
        this.name = name;
        this.p = p;
        this.groups = m;
    }

    @Override
    public String description() {
        return "logistic random-intercept GLMM " + name + " (" + y.length + " observations, " + groups + " groups, " + p
                + " covariates)";
    }

    public String name() {
        return name;
    }

    /** p, the number of regression coefficients. */
    public int covariates() {
        return p;
    }

    /** m. */
    public int groups() {
        return groups;
    }

    /** Observations sorted by group, n × p row-major; a copy. */
    public double[] sortedCovariates() {
        return x.clone();
    }

    /** Responses sorted by group; a copy. */
    public int[] sortedResponses() {
        return y.clone();
    }

    /** Group i's observations are {@code offsets[i] .. offsets[i+1]-1} of the sorted arrays; a copy. */
    public int[] offsets() {
        return offsets.clone();
    }

    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        for (int k = 0; k < p; k++) {
            names.add("beta" + k);
        }
        names.add("log_tau");
        return names;
    }

    @Override
    public double[] priorMean() {
        return new double[p + 1];
    }

    @Override
    public double[] priorSd() {
        double[] sd = new double[p + 1];
        Arrays.fill(sd, 0, p, BETA_PRIOR_SD);
        sd[p] = 1;
        return sd;
    }

    @Override
    public long observations() {
        return y.length;
    }

    /** Importance sampling of each group's intercept from its Laplace approximation (the default) or its prior. */
    @Override
    public List<Likelihood.Proposal> proposals() {
        return List.of(Likelihood.Proposal.LAPLACE, Likelihood.Proposal.PRIOR);
    }

    @Override
    public boolean hasExactLikelihood() {
        return true;
    }

    /**
     * Σ_i log ∫ Π_j p(y_ij | u) N(u; 0, τ²) du: per group, {@value #QUADRATURE_NODES}-node Gauss-Hermite quadrature
     * centred at the Laplace mode with its scale, checked against the {@value #CHECK_NODES}-node rule; where the two
     * differ by more than {@value #RULE_TOLERANCE} (a skewed integrand: a few observations under a wide prior, whose
     * Laplace scale misses the prior's tail), {@link #logIntegralByPanels} instead.
     */
    @Override
    public OptionalDouble exactLogLikelihood(double[] theta) {
        double[] a = new double[y.length];
        predictors(theta, a);
        double tau = Math.exp(theta[p]);
        double sum = 0;
        for (int i = 0; i < groups; i++) {
            sum += groupLogIntegral(a, i, tau);
        }
        return OptionalDouble.of(sum);
    }

    /** Group i's exact log likelihood, its intercept integrated out as in {@link #exactLogLikelihood}. */
    @Override
    public double logLikelihood(int point, double[] theta) {
        double[] a = new double[y.length];
        for (int j = offsets[point]; j < offsets[point + 1]; j++) {
            double s = 0;
            for (int k = 0; k < p; k++) {
                s += x[j * p + k] * theta[k];
            }
            a[j] = s;
        }
        return groupLogIntegral(a, point, Math.exp(theta[p]));
    }

    /** The groups: data annealing enters one group's marginal likelihood at a time. */
    @Override
    public int points() {
        return groups;
    }

    @Override
    public String pointName() {
        return "groups";
    }

    /** {@code log ∫ Π_j p(y_ij | u) N(u; 0, τ²) du} of group i from its predictors {@code a}. */
    private double groupLogIntegral(double[] a, int i, double tau) {
        double[] laplace = new double[2];
        laplace(a, i, tau, laplace);
        double value = logIntegralByHermite(GaussHermite.of(QUADRATURE_NODES), a, i, tau, laplace);
        if (!(Math.abs(value - logIntegralByHermite(GaussHermite.of(CHECK_NODES), a, i, tau, laplace)) <= RULE_TOLERANCE)) {
            value = logIntegralByPanels(a, i, tau, laplace[0], laplace[1]);
        }
        return value;
    }

    private double logIntegralByHermite(GaussHermite rule, double[] a, int i, double tau, double[] laplace) {
        double[] terms = new double[rule.size()];
        for (int k = 0; k < rule.size(); k++) {
            double t = rule.node(k);
            double u = laplace[0] + Math.sqrt(2) * laplace[1] * t;
            terms[k] = rule.logWeight(k) + t * t + logJoint(a, i, u, tau);
        }
        return LogSpace.logSumExp(terms, terms.length) + Math.log(Math.sqrt(2) * laplace[1]);
    }

    /**
     * {@code log ∫ exp(g(u)) du} for group i's log-concave {@code g = logJoint} with maximum at {@code mode}: composite
     * {@value #PANEL_NODES}-node Gauss-Legendre over panels that end, on each side of the mode, where g has fallen
     * 1, 2, 4, ..., 64 nats below its maximum (located by doubling from the Laplace scale, then bisection), so the
     * panels are narrow near the mode and wide in a slowly decaying tail alike. What lies beyond 64 nats is below
     * e^-64 of the integral.
     */
    double logIntegralByPanels(double[] a, int i, double tau, double mode, double scale) {
        GaussLegendre rule = GaussLegendre.of(PANEL_NODES);
        double top = logJoint(a, i, mode, tau);
        // 2 sides × 7 panels (drops of 1, 2, 4, ..., 64 nats) × the rule's nodes
        double[] terms = new double[2 * 7 * rule.size()];
        int used = 0;
        for (int side = -1; side <= 1; side += 2) {
            double inner = 0;
            for (double drop = 1; drop <= 64; drop *= 2) {
                double lo = inner;
                double hi = Math.max(2 * inner, scale);
                for (int k = 0; k < 2000 && logJoint(a, i, mode + side * hi, tau) > top - drop; k++) {
                    lo = hi;
                    hi *= 2;
                }
                for (int k = 0; k < 12; k++) {
                    double mid = 0.5 * (lo + hi);
                    if (logJoint(a, i, mode + side * mid, tau) > top - drop) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                double half = 0.5 * (hi - inner);
                double logHalf = Math.log(half);
                for (int k = 0; k < rule.size(); k++) {
                    double u = mode + side * (inner + half * (1 + rule.node(k)));
                    terms[used++] = logHalf + rule.logWeight(k) + logJoint(a, i, u, tau);
                }
                inner = hi;
            }
        }
        return LogSpace.logSumExp(terms, used);
    }

    /**
     * An unbiased estimate of {@code log p(y | θ)} from {@code inner} importance draws per group: draw j of group i is
     * {@code u = û + s ξ} (Laplace) or {@code u = τ ξ} (prior) with ξ normal {@code q = i·N + j} of
     * {@link NormalStream} {@code (particle, step, LATENT)}, weighted by {@code log p(y_i | u) + log N(u; 0, τ²) -
     * log q(u)}; the group's log mean weight by a running log-sum-exp over j in order; the groups summed in order.
     * {@code a} (n) and {@code laplace} (2) are scratch.
     */
    public double logLikelihoodEstimate(double[] theta, int inner, Likelihood.Proposal proposal, long seed, int particle,
                                        int step, double[] a, double[] laplace) {
        predictors(theta, a);
        double tau = Math.exp(theta[p]);
        NormalStream normals = new NormalStream(seed, particle, step, StreamTag.LATENT);
        double sum = 0;
        for (int i = 0; i < groups; i++) {
            double center = 0;
            double scale = tau;
            if (proposal == Likelihood.Proposal.LAPLACE) {
                laplace(a, i, tau, laplace);
                center = laplace[0];
                scale = laplace[1];
            }
            double max = Double.NEGATIVE_INFINITY;
            double total = 0;
            double logScale = Math.log(scale);
            for (int j = 0; j < inner; j++) {
                double xi = normals.at((long) i * inner + j);
                double u = center + scale * xi;
                double logWeight = proposal == Likelihood.Proposal.LAPLACE
                        ? logJoint(a, i, u, tau) + 0.5 * xi * xi + logScale + LOG_SQRT_2PI
                        : logLikelihood(a, i, u);
                if (logWeight > max) {
                    total = total * Math.exp(max - logWeight) + 1;
                    max = logWeight;
                } else {
                    total += Math.exp(logWeight - max);
                }
            }
            sum += max + Math.log(total / inner);
        }
        return sum;
    }

    /** {@code a[j] = x_jᵀβ} for every sorted observation. */
    public void predictors(double[] theta, double[] a) {
        for (int j = 0; j < y.length; j++) {
            double s = 0;
            for (int k = 0; k < p; k++) {
                s += x[j * p + k] * theta[k];
            }
            a[j] = s;
        }
    }

    /** {@code Σ_j [y η - softplus(η)]} over group i at intercept u: the log likelihood of its observations. */
    public double logLikelihood(double[] a, int i, double u) {
        double s = 0;
        for (int j = offsets[i]; j < offsets[i + 1]; j++) {
            double eta = a[j] + u;
            s += y[j] * eta - LogSpace.softplus(eta);
        }
        return s;
    }

    /** {@code log p(y_i | u) + log N(u; 0, τ²)}. */
    public double logJoint(double[] a, int i, double u, double tau) {
        return logLikelihood(a, i, u) - 0.5 * (u / tau) * (u / tau) - Math.log(tau) - LOG_SQRT_2PI;
    }

    /** The Laplace mode û and scale s of group i's intercept: {@code out = {û, s}} (see the class comment). */
    public void laplace(double[] a, int i, double tau, double[] out) {
        double precision = 1 / (tau * tau);
        double u = 0;
        double value = logJoint(a, i, u, tau);
        for (int step = 0; step < NEWTON_STEPS; step++) {
            double gradient = -u * precision;
            double curvature = precision;
            for (int j = offsets[i]; j < offsets[i + 1]; j++) {
                double s = LogSpace.sigmoid(a[j] + u);
                gradient += y[j] - s;
                curvature += s * (1 - s);
            }
            double delta = gradient / curvature;
            double next = u + delta;
            double nextValue = logJoint(a, i, next, tau);
            for (int h = 0; h < 30 && !(nextValue >= value); h++) {
                delta *= 0.5;
                next = u + delta;
                nextValue = logJoint(a, i, next, tau);
            }
            if (!(nextValue >= value)) {
                break;
            }
            u = next;
            value = nextValue;
            if (Math.abs(delta) < 1e-10 * (1 + Math.abs(u))) {
                break;
            }
        }
        double curvature = precision;
        for (int j = offsets[i]; j < offsets[i + 1]; j++) {
            double s = LogSpace.sigmoid(a[j] + u);
            curvature += s * (1 - s);
        }
        out[0] = u;
        out[1] = 1 / Math.sqrt(curvature);
    }
}
