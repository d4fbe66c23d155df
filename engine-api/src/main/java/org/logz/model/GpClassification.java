package org.logz.model;

import java.util.Arrays;

import org.logz.base.UserException;
import org.logz.numeric.Cholesky;

/**
 * Binary Gaussian-process classification with the probit link (ARM paper §4, DESIGN §5): the
 * evidence {@code Z = ∫ Π_i Φ(y_i x_i) N(x; 0, K) dx}, equal in the z-representation (eq. 10) to
 * {@code ∫ Π_i Θ(y_i z_i) N(z; 0, K + I) dz}, the orthant probability of {@code N(0, K + I)} signed
 * by the labels.
 *
 * @param covariance K, n × n row-major, symmetric positive semi-definite (K + I is checked positive
 *                   definite by its Cholesky factor); copied in and out
 * @param labels     y_i ∈ {-1, +1}; copied in and out
 * @param name       what the model is called in reports
 */
public record GpClassification(double[] covariance, int[] labels, String name) {
    /** The largest problem: K and the precision of K + I are dense n × n matrices held in one array each. */
    public static final int MAX_CASES = 5_000;
    /** Bound on |log ℓ| and |log σ|: σ² up to e^30 ≈ 1e13 keeps K + I meaningful in float64. */
    public static final double MAX_LOG_HYPERPARAMETER = 15;
    /** The largest prior variance K_ii accepted, for the same reason. */
    public static final double MAX_VARIANCE = 1e13;

    public GpClassification {
        int n = labels.length;
        if (n == 0) {
            throw new UserException(name + ": no cases (n = 0)");
        }
        if (n > MAX_CASES) {
            throw new UserException(name + ": " + n + " cases; at most " + MAX_CASES + " (K is a dense n × n matrix)");
        }
        if (covariance.length != (long) n * n) {
            throw new UserException(name + ": K has " + covariance.length + " entries for " + n + " labels; it must be "
                    + n + " × " + n);
        }
        for (int i = 0; i < n; i++) {
            if (labels[i] != 1 && labels[i] != -1) {
                throw new UserException(name + ": label " + (i + 1) + " is " + labels[i] + "; labels are ±1 (or 0/1)");
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double a = covariance[i * n + j];
                double b = covariance[j * n + i];
                if (!Double.isFinite(a)) {
                    throw new UserException(name + ": K[" + i + "][" + j + "] is " + a);
                }
                if (i == j && Math.abs(a) > MAX_VARIANCE) {
                    throw new UserException(name + ": K[" + i + "][" + i + "] = " + a + " is above " + MAX_VARIANCE
                            + ", where the I of K + I is lost to float64 rounding");
                }
                if (Math.abs(a - b) > 1e-9 * Math.max(1, Math.max(Math.abs(a), Math.abs(b)))) {
                    throw new UserException(name + ": K is not symmetric (K[" + i + "][" + j + "] = " + a + ", K[" + j
                            + "][" + i + "] = " + b + ")");
                }
            }
        }
        covariance = covariance.clone();
        labels = labels.clone();
        if (!positiveDefinite(plusIdentity(covariance, n), n)) {
            throw new UserException(name + ": K + I is not positive definite, or singular to working precision (K "
                    + "must be a covariance matrix)");
        }
    }

    /**
     * Whether K + I is positive definite as a covariance plus the identity is: every Cholesky pivot² (a Schur
     * complement) is then at least the smallest eigenvalue, 1, so one below ½ shows K indefinite (K = [[1, 2], [2, 1]]
     * makes K + I singular; there is no Gaussian z = f + ε to take orthant probabilities of, and EP returned a finite
     * log Z for an exact -∞), unless the rounding of a large K (64·n·2⁻⁵²·max K_ii) is as large as the test itself.
     */
    private static boolean positiveDefinite(double[] plusIdentity, int n) {
        double[] l = Cholesky.lower(plusIdentity, n);
        if (l == null) {
            return false;
        }
        double largest = 0;
        double smallest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            largest = Math.max(largest, plusIdentity[i * n + i]);
            smallest = Math.min(smallest, l[i * n + i] * l[i * n + i]);
        }
        return smallest > 0.5 - 64.0 * n * Math.ulp(1.0) * largest;
    }

    /**
     * The squared-exponential covariance {@code K_mn = σ² exp(-|ξ_m - ξ_n|² / (2ℓ²))} of the inputs
     * {@code x} (n rows of d features), with hyperparameters {@code log ℓ} and {@code log σ}.
     */
    public static GpClassification squaredExponential(double[][] x, int[] labels, double logEll, double logSigma,
                                                      String name) {
        if (!(Math.abs(logEll) <= MAX_LOG_HYPERPARAMETER && Math.abs(logSigma) <= MAX_LOG_HYPERPARAMETER)) {
            throw new UserException(name + ": hyperparameters log ℓ = " + logEll + ", log σ = " + logSigma + " must lie "
                    + "within ±" + MAX_LOG_HYPERPARAMETER + " (beyond, σ² swamps the I of K + I in float64 or vanishes)");
        }
        int n = x.length;
        if (n != labels.length) {
            throw new UserException(name + ": X has " + n + " rows and y " + labels.length + " labels");
        }
        if (n > MAX_CASES) {
            throw new UserException(name + ": " + n + " cases; at most " + MAX_CASES + " (K is a dense n × n matrix)");
        }
        int d = n == 0 ? 0 : x[0].length;
        for (int i = 0; i < n; i++) {
            if (x[i].length != d) {
                throw new UserException(name + ": row " + (i + 1) + " of X has " + x[i].length + " features, row 1 " + d);
            }
            for (int k = 0; k < d; k++) {
                if (!Double.isFinite(x[i][k])) {
                    throw new UserException(name + ": X[" + i + "][" + k + "] is " + x[i][k]);
                }
            }
        }
        double sigma2 = Math.exp(2 * logSigma);
        double inv2ell2 = 0.5 * Math.exp(-2 * logEll);
        double[] k = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double r2 = 0;
                for (int f = 0; f < d; f++) {
                    double diff = x[i][f] - x[j][f];
                    r2 += diff * diff;
                }
                double v = sigma2 * Math.exp(-r2 * inv2ell2);
                if (!Double.isFinite(v)) {
                    throw new UserException(name + ": σ² = exp(2 log σ) overflows (log σ = " + logSigma + ")");
                }
                k[i * n + j] = v;
                k[j * n + i] = v;
            }
        }
        return new GpClassification(k, labels, name);
    }

    /** Number of cases n. */
    public int size() {
        return labels.length;
    }

    @Override
    public double[] covariance() {
        return covariance.clone();
    }

    @Override
    public int[] labels() {
        return labels.clone();
    }

    /** {@code K_ij}. */
    public double k(int i, int j) {
        return covariance[i * labels.length + j];
    }

    /** {@code y_i}. */
    public int label(int i) {
        return labels[i];
    }

    /** Σ = K + I, the prior covariance of z (eq. 10), n × n row-major. */
    public double[] zCovariance() {
        return plusIdentity(covariance, labels.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GpClassification g && Arrays.equals(covariance, g.covariance)
                && Arrays.equals(labels, g.labels) && name.equals(g.name);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(covariance) + Arrays.hashCode(labels)) + name.hashCode();
    }

    @Override
    public String toString() {
        return name + " (GP classification, " + labels.length + " cases)";
    }

    private static double[] plusIdentity(double[] k, int n) {
        double[] s = k.clone();
        for (int i = 0; i < n; i++) {
            s[i * n + i] += 1;
        }
        return s;
    }
}
