package org.logz.estimate.ep;

import java.util.List;

import org.logz.base.EstimationException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.model.GpClassification;
import org.logz.numeric.Normal;

/**
 * EP's evidence with the second-order correction of Opper, Paquet &amp; Winther (2013), the "corrected EP" line of the
 * ARM paper's Fig. 2. Exactly, {@code Z = Z_EP · E_q[Π_i p_i(f_i)/q_i(f_i)]}, with p_i site i's tilted marginal
 * {@code ∝ N(f; m_i, v_i) Φ(y_i f)} (cavity m_i, v_i) and q_i = N(μ_i, Σ_ii) EP's marginal. Expanding each ratio in
 * Hermite polynomials of {@code u_i = (f_i - μ_i)/√Σ_ii}, {@code p_i/q_i = Σ_l a_li He_l(u_i)/l!} with
 * {@code a_li = E_{p_i}[He_l(u_i)]}, and Mehler's formula {@code E_q[He_l(u_i) He_k(u_j)] = δ_lk l! ρ_ij^l} give the
 * pairwise term {@code log R ≈ Σ_{i<j} Σ_l ρ_ij^l a_li a_lj / l!}, ρ the correlation of EP's posterior. Moment matching
 * makes a_1 = a_2 = 0 at EP's fixed point; this keeps the orders l = 3 and 4, whose a_l are then the tilted marginals'
 * standardized third and fourth cumulants (a site EP left unmatched, a clamped τ̃ = 0, keeps its general a_3, a_4).
 * Orders above 4 are left out: where posterior correlations approach 1 the series is not monotone and more terms can
 * overshoot.
 *
 * @param ep     the EP run corrected
 * @param order3 {@code Σ_{i<j} ρ_ij³ a_3i a_3j / 3!}
 * @param order4 {@code Σ_{i<j} ρ_ij⁴ a_4i a_4j / 4!}
 */
public record CorrectedEp(ProbitEp.Result ep, double order3, double order4) implements Approximation {
    /** Below this z the cumulant polynomials cancel badly; their asymptotic series take over. */
    private static final double ASYMPTOTIC = -20;

    /** The correction of {@code ep}, a converged EP run on {@code model}. */
    public static CorrectedEp of(GpClassification model, ProbitEp.Result ep) {
        int n = model.size();
        double[] sigma = ep.covariance();
        double[] mu = ep.mean();
        double[] tau = ep.siteTau();
        double[] nu = ep.siteNu();
        int[] y = model.labels();
        double[] a3 = new double[n];
        double[] a4 = new double[n];
        for (int i = 0; i < n; i++) {
            double sii = sigma[i * n + i];
            if (!(sii > 0)) {
                // a case with K_ii = 0: f_i = 0 under q and its tilted marginal, nothing to correct
                continue;
            }
            double v = 1 / (1 / sii - tau[i]);
            double m = v * (mu[i] / sii - nu[i]);
            double[] a = hermite(m, v, y[i], mu[i], Math.sqrt(sii));
            // a case whose posterior variance is below the arithmetic's reach (K_ii ~ 1e-200) has f_i pinned near 0:
            // its moments cannot be standardized, and its share of the correction is nil
            boolean readable = Double.isFinite(a[0]) && Double.isFinite(a[1]);
            a3[i] = readable ? a[0] : 0;
            a4[i] = readable ? a[1] : 0;
        }
        double t3 = 0;
        double t4 = 0;
        for (int i = 0; i < n; i++) {
            double sii = sigma[i * n + i];
            if (!(sii > 0)) {
                continue;
            }
            for (int j = i + 1; j < n; j++) {
                double sjj = sigma[j * n + j];
                if (!(sjj > 0)) {
                    continue;
                }
                double rho = sigma[i * n + j] / (Math.sqrt(sii) * Math.sqrt(sjj));
                double rho3 = rho * rho * rho;
                t3 += rho3 * a3[i] * a3[j];
                t4 += rho3 * rho * a4[i] * a4[j];
            }
        }
        if (!Double.isFinite(t3) || !Double.isFinite(t4)) {
            throw new EstimationException("the second-order correction of EP on " + model + " is not finite (order 3: "
                    + t3 / 6 + ", order 4: " + t4 / 24 + "); use --method ep or a sampling method");
        }
        return new CorrectedEp(ep, t3 / 6, t4 / 24);
    }

    /**
     * {@code a_3} and {@code a_4} of the tilted marginal {@code ∝ N(f; m, v) Φ(y f)} in units of EP's marginal
     * N(μ, s²): from its cumulants κ_l = (vα)^l h_l(z), α = y/√(1+v), z = αm, h_l the l-th derivative of log Φ, and
     * the Hermite moments {@code a_3 = E u³ - 3 E u}, {@code a_4 = E u⁴ - 6 E u² + 3} of u = (f - μ)/s.
     */
    static double[] hermite(double m, double v, int y, double mu, double s) {
        double alpha = y / Math.sqrt(1 + v);
        double z = alpha * m;
        double r = Normal.pdfOverCdf(z);
        double va = v * alpha;
        double k1 = m + va * r;
        double k2 = v - va * va * r * (z + r);
        double[] h = logCdfDerivatives(z, r);
        double k3 = va * va * va * h[0];
        double k4 = va * va * va * va * h[1];
        double d = (k1 - mu) / s;
        double c2 = k2 / (s * s);
        double c3 = k3 / (s * s * s);
        double c4 = k4 / (s * s * s * s);
        double a3 = c3 + 3 * d * c2 + d * d * d - 3 * d;
        double a4 = c4 + 4 * d * c3 + 3 * c2 * c2 + 6 * d * d * c2 + d * d * d * d - 6 * (c2 + d * d) + 3;
        return new double[] {a3, a4};
    }

    /**
     * The third and fourth derivatives of log Φ at z, with r = φ(z)/Φ(z): {@code h3 = r((z+r)(z+2r) - 1)},
     * {@code h4 = -r(6r³ + 12r²z + 7rz² - 4r + z³ - 3z)}; below z = -20 their asymptotic series in t = -z, where the
     * polynomials lose their digits to cancellation.
     */
    static double[] logCdfDerivatives(double z, double r) {
        if (z < ASYMPTOTIC) {
            double t = -z;
            double t2 = t * t;
            double h3 = (2 - (24 - (300 - 4144 / t2) / t2) / t2) / (t2 * t);
            double h4 = (6 - (120 - (2100 - 37296 / t2) / t2) / t2) / (t2 * t2);
            return new double[] {h3, h4};
        }
        double h3 = r * ((z + r) * (z + 2 * r) - 1);
        double h4 = -r * (6 * r * r * r + 12 * r * r * z + 7 * r * z * z - 4 * r + z * z * z - 3 * z);
        return new double[] {h3, h4};
    }

    @Override
    public double logZ() {
        return ep.logZ() + order3 + order4;
    }

    @Override
    public Method method() {
        return Method.EP_CORRECTED;
    }

    @Override
    public double seconds() {
        return ep.seconds();
    }

    @Override
    public List<Warning> warnings() {
        return ep.warnings();
    }
}
