package org.logz.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.GlmmEvidence;
import org.logz.model.latent.LatentFiles;
import org.logz.model.latent.StochasticVolatility;
import org.logz.numeric.GaussHermite;
import org.logz.numeric.LogSpace;
import org.logz.random.NormalStream;

/**
 * The latent-variable models against independent computations: Gauss-Hermite rules on moments of e^{-t²}, the
 * GLMM's exact likelihood against a dense trapezoid rule, its quadrature evidence against importance sampling
 * over θ, the particle filter's unbiasedness against a two-step series integrated by quadrature, and bad input.
 */
class LatentModelTest {
    @Test
    void gaussHermiteIntegratesMomentsExactly() {
        GaussHermite rule = GaussHermite.of(40);
        double[] moments = {Math.sqrt(Math.PI), 0, Math.sqrt(Math.PI) / 2, 0, 3 * Math.sqrt(Math.PI) / 4};
        for (int power = 0; power < moments.length; power++) {
            double s = 0;
            for (int k = 0; k < rule.size(); k++) {
                s += rule.weight(k) * Math.pow(rule.node(k), power);
            }
            assertEquals(moments[power], s, 1e-13, "∫ t^" + power + " e^{-t²}");
        }
    }

    /** Each group's factor against a trapezoid rule on [-12τ, 12τ] with 200,001 points. */
    @Test
    void glmmExactLikelihoodMatchesDenseIntegration() {
        Glmm model = LatentFiles.glmm("sim8");
        double[] theta = {-0.4, 1.3, 0.5};
        double[] a = new double[(int) model.observations()];
        model.predictors(theta, a);
        double tau = Math.exp(theta[2]);
        double sum = 0;
        int points = 200_001;
        double width = 24 * tau / (points - 1);
        for (int i = 0; i < model.groups(); i++) {
            double[] terms = new double[points];
            for (int k = 0; k < points; k++) {
                double u = -12 * tau + k * width;
                terms[k] = model.logJoint(a, i, u, tau) + Math.log(k == 0 || k == points - 1 ? 0.5 * width : width);
            }
            sum += LogSpace.logSumExp(terms, points);
        }
        assertEquals(sum, model.exactLogLikelihood(theta).orElseThrow(), 1e-9);
    }

    /**
     * Singleton groups under a wide prior (τ up to e^6), whose integrand is a cliff on one side of the Laplace mode and
     * the prior's tail on the other: the Laplace-centred Gauss-Hermite rule alone was off by 0.02 to 2 nats there (a
     * hostile review found it); the panel rule it falls back to must match a dense trapezoid rule, and a response
     * with β = 0 must give exactly log ½ at any τ.
     */
    @Test
    void glmmExactLikelihoodHoldsForSkewedGroups() {
        int n = 30;
        double[] x = new double[n];
        int[] y = new int[n];
        int[] group = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = 1;
            y[i] = i % 3 == 0 ? 0 : 1;
            group[i] = i;
        }
        Glmm model = new Glmm(x, y, group, 1, "singletons");
        for (double logTau : new double[] {-2, 1, 3, 4, 5, 6}) {
            assertEquals(n * Math.log(0.5), model.exactLogLikelihood(new double[] {0, logTau}).orElseThrow(), 1e-6,
                    "β = 0, log τ = " + logTau);
            for (double beta : new double[] {-4, 2.5}) {
                double[] theta = {beta, logTau};
                double[] a = new double[n];
                model.predictors(theta, a);
                double tau = Math.exp(logTau);
                double sum = 0;
                int points = 400_001;
                double lo = -40 - 12 * tau;
                double width = (2 * (40 + 12 * tau)) / (points - 1);
                for (int i = 0; i < 3; i++) {
                    double[] terms = new double[points];
                    for (int k = 0; k < points; k++) {
                        terms[k] = model.logJoint(a, i, lo + k * width, tau)
                                + Math.log(k == 0 || k == points - 1 ? 0.5 * width : width);
                    }
                    sum += LogSpace.logSumExp(terms, points);
                }
                // groups 0, 1, 2 stand for all: group i repeats group i mod 3
                assertEquals(n / 3.0 * sum, model.exactLogLikelihood(theta).orElseThrow(), 1e-5,
                        "β = " + beta + ", log τ = " + logTau);
            }
        }
    }

    @Test
    void gaussLegendreIntegratesPolynomialsExactly() {
        for (int n : new int[] {1, 2, 7, 24}) {
            org.logz.numeric.GaussLegendre rule = org.logz.numeric.GaussLegendre.of(n);
            for (int power = 0; power < 2 * n; power++) {
                double s = 0;
                for (int k = 0; k < rule.size(); k++) {
                    s += rule.weight(k) * Math.pow(rule.node(k), power);
                }
                assertEquals(power % 2 == 1 ? 0 : 2.0 / (power + 1), s, 1e-13, n + " nodes, ∫ t^" + power);
            }
        }
    }

    /** log Z by importance sampling from N(θ̂, 4 I) against the tensor rule; the rule's own error is small. */
    @Test
    void glmmEvidenceMatchesImportanceSampling() {
        Glmm model = LatentFiles.glmm("sim8");
        GlmmEvidence.Result quadrature = GlmmEvidence.of(model);
        int draws = 20_000;
        double[] logW = new double[draws];
        double scale = 2;
        for (int s = 0; s < draws; s++) {
            NormalStream normals = new NormalStream(3, s, 0, 99);
            double[] theta = new double[3];
            double logQ = 0;
            for (int k = 0; k < 3; k++) {
                double xi = normals.at(k);
                theta[k] = quadrature.mode()[k] + scale * xi;
                logQ += -0.5 * xi * xi - Math.log(scale) - 0.5 * Math.log(2 * Math.PI);
            }
            logW[s] = model.logPrior(theta) + model.exactLogLikelihood(theta).orElseThrow() - logQ;
        }
        double logZ = LogSpace.logSumExp(logW, draws) - Math.log(draws);
        double max = LogSpace.logSumExp(logW, draws);
        double squares = 0;
        for (double w : logW) {
            squares += Math.exp(2 * (w - max));
        }
        double se = Math.sqrt(squares * draws - 1) / Math.sqrt(draws);
        assertTrue(quadrature.quadratureError() < 1e-3, "rule difference " + quadrature.quadratureError());
        assertEquals(logZ, quadrature.logZ(), 4 * se + 1e-3, "IS " + logZ + " ± " + se);
    }

    /** T = 2: E[p̂/p] = 1 over 4000 filters of N = 3, p by 80 × 80 Gauss-Hermite nodes on (h_1, h_2). */
    @Test
    void particleFilterIsUnbiased() {
        StochasticVolatility model = new StochasticVolatility(new double[] {0.9, -1.7}, "two");
        double[] theta = {-0.5, 1.2, -0.8};
        double mu = theta[0];
        double phi = Math.tanh(theta[1]);
        double sigma = Math.exp(theta[2]);
        double stationary = sigma * Math.cosh(theta[1]);
        GaussHermite rule = GaussHermite.of(80);
        double exact = 0;
        for (int a = 0; a < rule.size(); a++) {
            double h1 = mu + Math.sqrt(2) * stationary * rule.node(a);
            for (int b = 0; b < rule.size(); b++) {
                double h2 = mu + phi * (h1 - mu) + Math.sqrt(2) * sigma * rule.node(b);
                exact += rule.weight(a) * rule.weight(b) / Math.PI * density(0.9, h1) * density(-1.7, h2);
            }
        }
        int count = 4000;
        double mean = 0;
        double squares = 0;
        double[] h = new double[3];
        double[] next = new double[3];
        double[] lw = new double[3];
        for (int r = 0; r < count; r++) {
            double ratio = Math.exp(model.logLikelihoodEstimate(theta, 3, 17, r, 0, h, next, lw) - Math.log(exact));
            mean += ratio / count;
            squares += ratio * ratio / count;
        }
        double se = Math.sqrt((squares - mean * mean) / count);
        assertEquals(1, mean, 4 * se, "E[p̂/p] (SE " + se + ")");
        assertTrue(se < 0.05, "the check has power: SE " + se);
    }

    private static double density(double y, double h) {
        return Math.exp(-0.5 * (Math.log(2 * Math.PI) + h + y * y * Math.exp(-h)));
    }

    @Test
    void badInputIsRefusedWithItsReason() {
        assertThrows(UserException.class, () -> new Glmm(new double[] {1, 2}, new int[] {0, 2}, new int[] {0, 0}, 1, "t"));
        assertThrows(UserException.class, () -> new Glmm(new double[] {1, 2}, new int[] {0, 1}, new int[] {0, 2}, 1, "t"));
        assertThrows(UserException.class, () -> new Glmm(new double[] {1, Double.NaN}, new int[] {0, 1}, new int[] {0, 0},
                1, "t"));
        assertThrows(UserException.class, () -> new Glmm(new double[0], new int[0], new int[0], 1, "t"));
        assertThrows(UserException.class, () -> new StochasticVolatility(new double[] {1, Double.POSITIVE_INFINITY}, "t"));
        assertThrows(UserException.class, () -> new StochasticVolatility(new double[0], "t"));
        assertThrows(UserException.class, () -> new PseudoMarginal(LatentFiles.stochasticVolatility("sim200"),
                new Likelihood.Exact()));
        assertThrows(UserException.class, () -> new PseudoMarginal(LatentFiles.glmm("sim8"),
                new Likelihood.Estimated(4, Likelihood.Proposal.BOOTSTRAP)));
        assertThrows(UserException.class, () -> new Likelihood.Estimated(0, Likelihood.Proposal.PRIOR));
    }
}
