package org.logz.estimate.ep;

import java.util.List;
import java.util.stream.IntStream;

import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.model.GpClassification;
import org.logz.numeric.Cholesky;
import org.logz.numeric.Normal;

/**
 * Expectation propagation for probit GP classification (Rasmussen &amp; Williams 2006, Algorithms 3.5
 * and 3.6): Gaussian site terms {@code t_i(x_i) ∝ N(x_i; ν̃_i/τ̃_i, 1/τ̃_i)} replace the likelihoods
 * {@code Φ(y_i x_i)}, updated one at a time by moment matching with the tilted distribution (eq.
 * 3.58), with parallel recomputation of the posterior {@code q(x) = N(μ, Σ)} after every sweep for
 * numerical stability. Reports {@code log Z_EP} (eq. 3.65) and q, the proposal of the ARM paper's
 * eq. 11 for AIS.
 *
 * <p>Departure from Algorithm 3.5: site updates are damped ({@code τ̃ ← (1-d) τ̃ + d τ̃_new}, the
 * same for ν̃) and site precisions are kept non-negative, as GPML's implementation does; without
 * damping EP can oscillate on strongly correlated priors such as the ARM paper's
 * {@code log σ = 5.1}. A run that has not converged after {@code maxSweeps} is an
 * {@link EstimationException} naming the last change.
 */
public final class ProbitEp {
    /**
     * @param damping   d ∈ (0, 1]: 1 is undamped
     * @param tolerance convergence when no site parameter moved by more than this in a sweep
     * @param maxSweeps the cap on sweeps
     */
    public record Settings(double damping, double tolerance, int maxSweeps) {
        public Settings {
            if (!(damping > 0 && damping <= 1)) {
                throw new UserException("EP damping must lie in (0, 1], got " + damping);
            }
            if (!(tolerance > 0 && tolerance < 1)) {
                throw new UserException("EP tolerance must lie in (0, 1), got " + tolerance);
            }
            if (maxSweeps < 1 || maxSweeps > 10_000) {
                throw new UserException("EP sweeps must be between 1 and 10000, got " + maxSweeps);
            }
        }

        /** Damping 0.8, tolerance 1e-8, at most 200 sweeps. */
        public static Settings defaults() {
            return new Settings(0.8, 1e-8, 200);
        }
    }

    /**
     * @param logZ        {@code log Z_EP} (R&amp;W eq. 3.65)
     * @param mean        μ of q, n values
     * @param covariance  Σ of q, n × n row-major
     * @param siteTau     the site precisions τ̃_i ≥ 0, n values: {@code q ∝ N(x; 0, K) Π exp(-τ̃_i x_i²/2 + ν̃_i x_i)}
     * @param siteNu      the site shifts ν̃_i, n values
     * @param sweeps      sweeps run
     * @param change      largest site-parameter change in the last sweep
     * @param seconds     wall time
     */
    public record Result(double logZ, double[] mean, double[] covariance, double[] siteTau, double[] siteNu, int sweeps,
                         double change, double seconds) implements Approximation {
        public Result {
            mean = mean.clone();
            covariance = covariance.clone();
            siteTau = siteTau.clone();
            siteNu = siteNu.clone();
        }

        @Override
        public double[] siteTau() {
            return siteTau.clone();
        }

        @Override
        public double[] siteNu() {
            return siteNu.clone();
        }

        @Override
        public double[] mean() {
            return mean.clone();
        }

        @Override
        public double[] covariance() {
            return covariance.clone();
        }

        @Override
        public Method method() {
            return Method.EP;
        }

        /** Convergence failures are errors; a converged EP raises no warning of its own. */
        @Override
        public List<Warning> warnings() {
            return List.of();
        }
    }

    private ProbitEp() {
    }

    public static Result run(GpClassification model, Settings settings) {
        long started = System.nanoTime();
        int n = model.size();
        double[] k = model.covariance();
        int[] y = model.labels();
        double[] tauSite = new double[n];
        double[] nuSite = new double[n];
        double[] sigma = k.clone();
        double[] mu = new double[n];
        double change = Double.POSITIVE_INFINITY;
        int sweep = 0;
        while (sweep < settings.maxSweeps() && change > settings.tolerance()) {
            change = 0;
            for (int i = 0; i < n; i++) {
                double sii = sigma[i * n + i];
                if (!(sii > 0)) {
                    // K_ii = 0: x_i is 0 under the prior, its factor Φ(0) = 1/2 is constant; the site stays empty
                    continue;
                }
                double tauCavity = 1 / sii - tauSite[i];
                double nuCavity = mu[i] / sii - nuSite[i];
                double varCavity = 1 / tauCavity;
                double meanCavity = nuCavity * varCavity;
                double scale = Math.sqrt(1 + varCavity);
                double z = y[i] * meanCavity / scale;
                double r = Normal.pdfOverCdf(z);
                // moments of the tilted distribution Φ(y_i x_i) N(x_i; μ_-i, σ²_-i) (R&W eq. 3.58)
                double meanHat = meanCavity + y[i] * varCavity * r / scale;
                double varHat = varCavity - varCavity * varCavity * r * (z + r) / (1 + varCavity);
                double tauNew = Math.max(0, (1 - settings.damping()) * tauSite[i]
                        + settings.damping() * (1 / varHat - tauCavity));
                double nuNew = (1 - settings.damping()) * nuSite[i] + settings.damping() * (meanHat / varHat - nuCavity);
                double deltaTau = tauNew - tauSite[i];
                double nuPrevious = nuSite[i];
                change = Math.max(change, Math.max(Math.abs(deltaTau), Math.abs(nuNew - nuPrevious)));
                tauSite[i] = tauNew;
                nuSite[i] = nuNew;
                // rank-one update of Σ for the new site precision (R&W eq. 3.70), and μ = Σ ν̃ with it:
                // Σ' = Σ - c s sᵀ (s = Σ e_i), so Σ'ν̃' = μ - c s (sᵀν̃) + Δν̃ Σ' e_i = μ + s (Δν̃ - c (μ_i + Δν̃ s_i)),
                // O(n) instead of the O(n²) product (R&W Algorithm 3.5 line 8)
                double c = deltaTau / (1 + deltaTau * sii);
                double deltaNu = nuNew - nuPrevious;
                double[] si = new double[n];
                for (int j = 0; j < n; j++) {
                    si[j] = sigma[j * n + i];
                }
                rankOneUpdate(sigma, c, si, n);
                double shift = deltaNu - c * (mu[i] + deltaNu * sii);
                for (int a = 0; a < n; a++) {
                    mu[a] += si[a] * shift;
                }
            }
            Posterior p = posterior(k, tauSite, nuSite, n);
            sigma = p.sigma();
            mu = p.mu();
            sweep++;
            if (!Double.isFinite(change)) {
                throw new EstimationException("EP on " + model + " broke down in sweep " + sweep
                        + " (non-finite site parameters); use a sampling method (rm, arm) for this problem");
            }
        }
        if (change > settings.tolerance()) {
            throw new EstimationException(String.format(java.util.Locale.ROOT, "EP on %s did not converge in %d sweeps "
                    + "(last change %.3g, tolerance %.1g); use a sampling method (rm, arm) for this problem", model, sweep, change,
                    settings.tolerance()));
        }
        double logZ = logZ(k, y, tauSite, nuSite, sigma, mu, n);
        return new Result(logZ, mu, sigma, tauSite, nuSite, sweep, change, (System.nanoTime() - started) * 1e-9);
    }

    /** Rows of a model this large are updated in parallel: below it a task costs more than its row. */
    private static final int PARALLEL_ROWS = 256;

    /**
     * Σ -= c s sᵀ, the O(n²) step of every site update, row by row: each element's arithmetic is the same on any
     * number of threads, so EP's result is too.
     */
    private static void rankOneUpdate(double[] sigma, double c, double[] s, int n) {
        IntStream rows = IntStream.range(0, n);
        (n >= PARALLEL_ROWS ? rows.parallel() : rows).forEach(a -> {
            double ca = c * s[a];
            int row = a * n;
            for (int b = 0; b < n; b++) {
                sigma[row + b] -= ca * s[b];
            }
        });
    }

    private record Posterior(double[] sigma, double[] mu, double[] cholesky) {
    }

    /**
     * Σ = K - Vᵀ V with {@code V = L⁻¹ S̃^½ K}, {@code L = chol(I + S̃^½ K S̃^½)}, μ = Σ ν̃ (R&amp;W
     * Algorithm 3.5, lines 9-11): no inverse of K or of the site precisions.
     */
    private static Posterior posterior(double[] k, double[] tauSite, double[] nuSite, int n) {
        double[] sq = new double[n];
        for (int i = 0; i < n; i++) {
            sq[i] = Math.sqrt(tauSite[i]);
        }
        double[] b = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                b[i * n + j] = (i == j ? 1 : 0) + sq[i] * k[i * n + j] * sq[j];
            }
        }
        double[] l = Cholesky.lower(b, n);
        if (l == null) {
            throw new EstimationException("EP: I + S̃^½ K S̃^½ lost positive definiteness (rounding on a "
                    + "near-singular K); use a sampling method (rm, arm) for this problem");
        }
        // V = L⁻¹ (S̃^½ K) by forward substitution, row by row (V_i: = (S̃^½ K)_i: - Σ_{j<i} L_ij V_j:) / L_ii
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) {
            int row = i * n;
            for (int c = 0; c < n; c++) {
                v[row + c] = sq[i] * k[row + c];
            }
            for (int j = 0; j < i; j++) {
                double lij = l[row + j];
                int other = j * n;
                for (int c = 0; c < n; c++) {
                    v[row + c] -= lij * v[other + c];
                }
            }
            double lii = l[row + i];
            for (int c = 0; c < n; c++) {
                v[row + c] /= lii;
            }
        }
        // Σ = K - Vᵀ V, one rank-one term per row of V
        // each output row a sums its terms over j in the same order on any number of threads
        double[] sigma = k.clone();
        IntStream rows = IntStream.range(0, n);
        (n >= PARALLEL_ROWS ? rows.parallel() : rows).forEach(a -> {
            int out = a * n;
            for (int j = 0; j < n; j++) {
                int row = j * n;
                double vja = v[row + a];
                for (int bb = 0; bb < n; bb++) {
                    sigma[out + bb] -= vja * v[row + bb];
                }
            }
        });
        double[] mu = new double[n];
        multiply(sigma, nuSite, mu, n);
        return new Posterior(sigma, mu, l);
    }

    /**
     * {@code log Z_EP} of R&amp;W eq. 3.65 rewritten to stay finite when a site precision τ̃_i is zero
     * (σ̃²_i = ∞): with {@code B = I + S̃^½ K S̃^½ = L Lᵀ} and the cavities {@code (μ_-i, σ²_-i)},
     * <pre>
     * log Z_EP = -Σ log L_ii + ½ Σ log(1 + τ̃_i σ²_-i) + ½ ν̃ᵀ Σ ν̃ + Σ log Φ(y_i μ_-i / √(1 + σ²_-i))
     *            + Σ (τ̃_i μ_-i² - 2 μ_-i ν̃_i - ν̃_i² σ²_-i) / (2 (1 + τ̃_i σ²_-i)),
     * </pre>
     * from {@code |K + S̃⁻¹| = |B| / |S̃|} and {@code S̃⁻¹ (K + S̃⁻¹)⁻¹ S̃⁻¹ = S̃⁻¹ - Σ}; the test checks it
     * against eq. 3.65 as printed.
     */
    private static double logZ(double[] k, int[] y, double[] tauSite, double[] nuSite, double[] sigma, double[] mu, int n) {
        double[] l = posterior(k, tauSite, nuSite, n).cholesky();
        double[] sigmaNu = new double[n];
        multiply(sigma, nuSite, sigmaNu, n);
        double logZ = 0;
        for (int i = 0; i < n; i++) {
            double sii = sigma[i * n + i];
            if (!(sii > 0)) {
                logZ += -Math.log(l[i * n + i]) - Math.log(2);
                continue;
            }
            double varCavity = 1 / (1 / sii - tauSite[i]);
            double meanCavity = varCavity * (mu[i] / sii - nuSite[i]);
            double spread = 1 + tauSite[i] * varCavity;
            logZ += -Math.log(l[i * n + i]) + 0.5 * Math.log(spread) + 0.5 * nuSite[i] * sigmaNu[i]
                    + Normal.logCdf(y[i] * meanCavity / Math.sqrt(1 + varCavity))
                    + (tauSite[i] * meanCavity * meanCavity - 2 * meanCavity * nuSite[i]
                    - nuSite[i] * nuSite[i] * varCavity) / (2 * spread);
        }
        return logZ;
    }

    private static void multiply(double[] a, double[] x, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += a[i * n + j] * x[j];
            }
            out[i] = s;
        }
    }
}
