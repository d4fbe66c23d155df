package org.logz.model.gpc;

import java.util.Locale;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.GpClassification;
import org.logz.model.TemperedModel;
import org.logz.numeric.Cholesky;
import org.logz.numeric.Normal;

/**
 * GP classification on a tempered path over the latent function values x (ARM paper §4, eq. 11;
 * DESIGN §5): {@code p_β(x) ∝ p_0(x) exp(β ℓ(x))} from a Gaussian start {@code p_0 = N(μ, G Gᵀ)} to the
 * posterior {@code p_1(x) ∝ N(x; 0, K) Π_i Φ(y_i x_i)}, so that {@code Z_1} is the evidence and
 * {@code Z_0 = 1}. Two starts:
 * <ul>
 *   <li>the prior: {@code p_0 = N(0, K)}, {@code ℓ(x) = Σ_i log Φ(y_i x_i)} (the tempered likelihood
 *       {@code Π Φ(y_i x_i)^β N(x; 0, K)});</li>
 *   <li>EP's Gaussian q (Rasmussen &amp; Williams Algorithm 3.5), {@code q ∝ N(x; 0, K) Π_i t̃_i(x_i)} with
 *       sites {@code t̃_i(x) = exp(-τ̃_i x²/2 + ν̃_i x)}: eq. 11's {@code (L(x) N(x; 0, K))^β q(x)^(1-β)}, with
 *       {@code ℓ = log(N(x; 0, K) Π Φ(y_i x_i) / q(x)) = Σ_i [log Φ(y_i x_i) + τ̃_i x_i²/2 - ν̃_i x_i] + ½ μᵀν̃
 *       - ½ log|I + Fᵀ S̃ F|}: the prior over q is a product of inverse sites, so no K⁻¹ is needed.</li>
 * </ul>
 * Both ℓ are sums of one term per case, so a state's ℓ costs O(n) and the only dense object is the
 * base's factor G, which the elliptical slice sampler ({@link org.logz.model.gpc.GpcEllipse}) uses to draw
 * the auxiliary Gaussian (O(n·rank) per transition).
 *
 * <p>{@code log f_β} is the log density with respect to the base {@code p_0} (so {@code f_0 = 1} and
 * {@code log Z_0 = 0}): {@code log f_β(x) = β ℓ(x)}. Every estimator uses differences of log f at one
 * state (annealing increments, tempering levels, work values), which do not depend on that choice.
 *
 * <p>K is factored as {@code K ≈ F Fᵀ} by pivoted Cholesky ({@link Cholesky#pivoted}), stopped at pivots of
 * {@code n·2⁻⁵²·max K_ii}: full rank on the shipped sets (the smallest eigenvalue of mnist35's K at the
 * default hyperparameters is 2e-3), lower for a singular K (rank 0 for K = 0, where {@code Z = 2⁻ⁿ}
 * exactly); the model this path estimates is the one with covariance {@code F Fᵀ}, which differs from K
 * by at most that tolerance per entry. EP's factor is {@code G = F L_A⁻ᵀ} with {@code A = I + Fᵀ S̃ F = L_A
 * L_Aᵀ} (so {@code G Gᵀ = (K⁻¹ + S̃)⁻¹} by Woodbury, without inverting K), and {@code μ = G Gᵀ ν̃}: base and
 * ℓ then describe the same q exactly, whatever EP's own rounding.
 */
public final class TemperedGpc implements TemperedModel {
    /** Where the path starts. */
    public enum Start {
        /** The GP prior N(0, K). */
        PRIOR,
        /** EP's Gaussian approximation q of the posterior (the ARM paper's eq. 11). */
        EP;

        /** {@code prior} or {@code ep}, as the command line names them. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Start parse(String s) {
            for (Start start : values()) {
                if (start.toString().equals(s.trim().toLowerCase(Locale.ROOT))) {
                    return start;
                }
            }
            throw new UserException("--start must be prior or ep, got '" + s + "'");
        }
    }

    private final GpClassification model;
    private final Start start;
    private final double[] mean;
    private final Cholesky.Factor factor;
    private final double[] quadratic;
    private final double[] linear;
    private final double constant;
    private final int[] labels;

    /**
     * The classifier's numbers (not its name: a copied data file resumes its checkpoint) and the start's Gaussian (prior
     * or EP's q), digested ({@link ContentDigest}).
     */
    @Override
    public String fingerprint() {
        return "gpc " + ContentDigest.of(model.covariance(), model.labels()) + ", start " + start + " "
                + ContentDigest.of(mean, quadratic);
    }

    private TemperedGpc(GpClassification model, Start start, double[] mean, Cholesky.Factor factor, double[] quadratic,
                        double[] linear, double constant) {
        this.model = model;
        this.start = start;
        this.mean = mean;
        this.factor = factor;
        this.quadratic = quadratic;
        this.linear = linear;
        this.constant = constant;
        this.labels = model.labels();
    }

    /** The path from the prior {@code N(0, K)}. */
    public static TemperedGpc fromPrior(GpClassification model) {
        int n = model.size();
        return new TemperedGpc(model, Start.PRIOR, new double[n], factorOfK(model), new double[n], new double[n], 0);
    }

    /**
     * The path from EP's q, given EP's site precisions τ̃ (non-negative) and shifts ν̃ for {@code model}
     * ({@code org.logz.estimate.ep.ProbitEp.Result#siteTau}, {@code #siteNu}); reads the arrays, keeps no
     * reference to them.
     */
    public static TemperedGpc fromEp(GpClassification model, double[] tau, double[] nu) {
        int n = model.size();
        if (tau.length != n || nu.length != n) {
            throw new IllegalArgumentException("EP sites for " + tau.length + " cases, the model has " + n);
        }
        for (int i = 0; i < n; i++) {
            if (!(tau[i] >= 0 && tau[i] < Double.POSITIVE_INFINITY && Double.isFinite(nu[i]))) {
                throw new IllegalArgumentException("EP site " + i + " is (τ̃ " + tau[i] + ", ν̃ " + nu[i] + ")");
            }
        }
        Cholesky.Factor f = factorOfK(model);
        int r = f.rank();
        double[] fc = f.columns();
        double[] a = new double[r * r];
        for (int j = 0; j < r; j++) {
            for (int k = 0; k <= j; k++) {
                double s = j == k ? 1 : 0;
                for (int i = 0; i < n; i++) {
                    s += fc[j * n + i] * tau[i] * fc[k * n + i];
                }
                a[j * r + k] = s;
                a[k * r + j] = s;
            }
        }
        double[] la = Cholesky.lower(a, r);
        if (la == null) {
            throw new IllegalStateException("I + Fᵀ S̃ F is not positive definite: EP site precisions must be ≥ 0");
        }
        // G = F L_A⁻ᵀ, so Gᵀ = L_A⁻¹ Fᵀ: forward substitution on each row i of F (column i of Fᵀ)
        double[] g = new double[r * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < r; j++) {
                double s = fc[j * n + i];
                for (int k = 0; k < j; k++) {
                    s -= la[j * r + k] * g[k * n + i];
                }
                g[j * n + i] = s / la[j * r + j];
            }
        }
        double[] mu = new double[n];
        for (int j = 0; j < r; j++) {
            double dot = 0;
            for (int i = 0; i < n; i++) {
                dot += g[j * n + i] * nu[i];
            }
            for (int i = 0; i < n; i++) {
                mu[i] += g[j * n + i] * dot;
            }
        }
        double halfLogDet = 0;
        double muNu = 0;
        double[] quadratic = new double[n];
        double[] linear = new double[n];
        for (int j = 0; j < r; j++) {
            halfLogDet += Math.log(la[j * r + j]);
        }
        for (int i = 0; i < n; i++) {
            muNu += mu[i] * nu[i];
            quadratic[i] = 0.5 * tau[i];
            linear[i] = -nu[i];
        }
        return new TemperedGpc(model, Start.EP, mu, new Cholesky.Factor(n, r, g), quadratic, linear,
                0.5 * muNu - halfLogDet);
    }

    private static Cholesky.Factor factorOfK(GpClassification model) {
        int n = model.size();
        double[] k = model.covariance();
        double largest = 0;
        for (int i = 0; i < n; i++) {
            largest = Math.max(largest, k[i * n + i]);
        }
        Cholesky.Factor f = Cholesky.pivoted(k, n, n * Math.ulp(1.0) * largest);
        if (f == null) {
            throw new UserException(model.name() + ": K is not positive semi-definite, so it is no covariance of the "
                    + "latent function values that the annealing methods sample (the sequential methods need only "
                    + "K + I positive definite)");
        }
        return f;
    }

    public GpClassification classification() {
        return model;
    }

    @Override
    public String baseName() {
        return start.toString();
    }

    public Start start() {
        return start;
    }

    /** Number of cases n, the dimension of x. */
    public int size() {
        return labels.length;
    }

    /** The rank of the base's factor G. */
    public int rank() {
        return factor.rank();
    }

    /** μ of the base, n values (a copy). */
    public double[] mean() {
        return mean.clone();
    }

    /** The base's factor G (n × rank, {@code G Gᵀ} its covariance), by columns. */
    public Cholesky.Factor factor() {
        return factor;
    }

    /** The coefficients of {@code x_i²} in ℓ (τ̃_i/2 from EP, 0 from the prior), a copy. */
    public double[] quadratic() {
        return quadratic.clone();
    }

    /** The coefficients of {@code x_i} in ℓ (-ν̃_i from EP, 0 from the prior), a copy. */
    public double[] linear() {
        return linear.clone();
    }

    /** The constant of ℓ ({@code ½ μᵀν̃ - ½ log|A|} from EP, 0 from the prior). */
    public double constant() {
        return constant;
    }

    /** {@code y_i}. */
    public int label(int i) {
        return labels[i];
    }

    /** Term i of ℓ at {@code x_i = v}: {@code log Φ(y_i v) + (a_i v + b_i) v}. */
    public double term(int i, double v) {
        return Normal.logCdf(labels[i] * v) + (quadratic[i] * v + linear[i]) * v;
    }

    /**
     * {@code ℓ(x)} of the state {@code x[offset .. offset + n)}: the terms summed in index order in float64,
     * then the constant (the order every backend keeps).
     */
    public double logLikelihoodRatio(float[] x, int offset) {
        double s = 0;
        for (int i = 0; i < labels.length; i++) {
            s += term(i, x[offset + i]);
        }
        return s + constant;
    }

    /** {@link #logLikelihoodRatio(float[], int)} of a float64 state (whitened HMC's {@code x = μ + G ξ}, {@link WhitenedGpc}). */
    public double logLikelihoodRatio(double[] x) {
        double s = 0;
        for (int i = 0; i < labels.length; i++) {
            s += term(i, x[i]);
        }
        return s + constant;
    }

    @Override
    public String description() {
        return model + ", tempered likelihood from " + (start == Start.PRIOR ? "the prior" : "EP's q");
    }

    @Override
    public int dimension() {
        return labels.length;
    }

    /** The base is normalized and log f is its density ratio: {@code Z_0 = 1}. */
    @Override
    public double logZ0() {
        return 0;
    }

    /** x (n floats) and the auxiliary draw ν of a transition (n doubles of device scratch). */
    @Override
    public long bytesPerChain() {
        return 12L * labels.length;
    }

    /** {@code log f_β = β ℓ(x)}. */
    @Override
    public boolean linearPath() {
        return true;
    }
}
