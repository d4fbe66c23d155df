package org.logz.model.latent;

import java.util.stream.IntStream;

import org.logz.base.UserException;
import org.logz.numeric.Cholesky;
import org.logz.numeric.GaussHermite;
import org.logz.numeric.LogSpace;

/**
 * The evidence {@code log ∫ p(θ) p(y | θ) dθ} of a {@link Glmm} with p ≤ 2 covariates (θ of dimension d ≤ 3) by
 * adaptive tensor Gauss-Hermite quadrature (Liu &amp; Pierce 1994) on the exact likelihood: the posterior mode θ̂
 * by Newton's method on finite-difference derivatives, Σ the inverse of the negative Hessian there, L its
 * Cholesky factor, and {@code log Z = (d/2) log 2 + log |L| + log Σ_k Π w_{k_i} exp(|t_k|² + h(θ̂ + √2 L t_k))}
 * with h the log posterior density. Two rules ({@value #COARSE} and {@value #FINE} nodes per dimension) give the
 * value and its error estimate, their difference.
 */
public final class GlmmEvidence {
    /** Nodes per dimension of the error estimate's rule. */
    public static final int COARSE = 16;
    /** Nodes per dimension of the reported rule. */
    public static final int FINE = 24;
    /** The largest dimension of θ the tensor rule covers (FINE^d evaluations of the likelihood). */
    public static final int MAX_DIMENSION = 3;
    /** The largest difference between the two rules (nats) at which the evidence counts as exact. */
    public static final double TOLERANCE = 1e-3;
    private static final double STEP = 1e-4;

    /** The evidence and the difference between the two rules. */
    public record Result(double logZ, double quadratureError, double[] mode) {
    }

    private GlmmEvidence() {
    }

    public static Result of(Glmm model) {
        int d = model.parameters();
        if (d > MAX_DIMENSION) {
            throw new UserException("the quadrature evidence of a GLMM needs at most 2 covariates (θ of dimension ≤ 3); "
                    + model.description() + " has " + model.covariates());
        }
        double[] mode = mode(model);
        double[] hessian = hessian(model, mode);
        double[] covariance = new double[d * d];
        double[] negated = new double[d * d];
        for (int k = 0; k < d * d; k++) {
            negated[k] = -hessian[k];
        }
        double[] lower = Cholesky.lower(negated, d);
        if (lower == null) {
            throw new UserException(model.description() + ": the log posterior is not concave at its mode; the quadrature "
                    + "evidence needs a unimodal posterior");
        }
        for (int c = 0; c < d; c++) {
            double[] column = Cholesky.inverseColumn(lower, d, c);
            for (int r = 0; r < d; r++) {
                covariance[r * d + c] = column[r];
            }
        }
        double[] factor = Cholesky.lower(covariance, d);
        double fine = rule(model, mode, factor, FINE);
        double coarse = rule(model, mode, factor, COARSE);
        return new Result(fine, Math.abs(fine - coarse), mode);
    }

    private static double logPosterior(Glmm model, double[] theta) {
        return model.logPrior(theta) + model.exactLogLikelihood(theta).orElseThrow();
    }

    private static double rule(Glmm model, double[] mode, double[] factor, int nodes) {
        GaussHermite gh = GaussHermite.of(nodes);
        int d = mode.length;
        int total = (int) Math.pow(nodes, d);
        double[] terms = new double[total];
        IntStream.range(0, total).parallel().forEach(index -> {
            double[] t = new double[d];
            double logWeight = 0;
            int rest = index;
            for (int k = 0; k < d; k++) {
                int i = rest % nodes;
                rest /= nodes;
                t[k] = gh.node(i);
                logWeight += gh.logWeight(i) + t[k] * t[k];
            }
            double[] theta = mode.clone();
            for (int r = 0; r < d; r++) {
                for (int c = 0; c <= r; c++) {
                    theta[r] += Math.sqrt(2) * factor[r * d + c] * t[c];
                }
            }
            terms[index] = logWeight + logPosterior(model, theta);
        });
        double logDet = 0;
        for (int k = 0; k < d; k++) {
            logDet += Math.log(factor[k * d + k]);
        }
        return 0.5 * d * Math.log(2) + logDet + LogSpace.logSumExp(terms, total);
    }

    /** The posterior mode by damped Newton steps on central-difference derivatives, from the prior mean. */
    static double[] mode(Glmm model) {
        int d = model.parameters();
        double[] theta = model.priorMean();
        double value = logPosterior(model, theta);
        for (int iteration = 0; iteration < 200; iteration++) {
            double[] g = gradient(model, theta);
            double[] h = hessian(model, theta);
            double[] negated = new double[d * d];
            for (int k = 0; k < d * d; k++) {
                negated[k] = -h[k];
            }
            double[] lower = Cholesky.lower(negated, d);
            double[] step = new double[d];
            if (lower != null) {
                for (int c = 0; c < d; c++) {
                    double[] column = Cholesky.inverseColumn(lower, d, c);
                    for (int r = 0; r < d; r++) {
                        step[r] += column[r] * g[c];
                    }
                }
            } else {
                for (int k = 0; k < d; k++) {
                    step[k] = 0.1 * g[k];
                }
            }
            double size = 1;
            double[] next = new double[d];
            double nextValue = Double.NEGATIVE_INFINITY;
            for (int halving = 0; halving < 40; halving++) {
                for (int k = 0; k < d; k++) {
                    next[k] = theta[k] + size * step[k];
                }
                nextValue = logPosterior(model, next);
                if (nextValue >= value) {
                    break;
                }
                size *= 0.5;
            }
            if (!(nextValue >= value)) {
                break;
            }
            double moved = 0;
            for (int k = 0; k < d; k++) {
                moved = Math.max(moved, Math.abs(next[k] - theta[k]));
            }
            theta = next.clone();
            value = nextValue;
            if (moved < 1e-9) {
                break;
            }
        }
        return theta;
    }

    private static double[] gradient(Glmm model, double[] theta) {
        int d = theta.length;
        double[] g = new double[d];
        for (int k = 0; k < d; k++) {
            double[] up = theta.clone();
            double[] down = theta.clone();
            up[k] += STEP;
            down[k] -= STEP;
            g[k] = (logPosterior(model, up) - logPosterior(model, down)) / (2 * STEP);
        }
        return g;
    }

    private static double[] hessian(Glmm model, double[] theta) {
        int d = theta.length;
        double[] h = new double[d * d];
        double center = logPosterior(model, theta);
        for (int k = 0; k < d; k++) {
            for (int q = 0; q <= k; q++) {
                double value;
                if (k == q) {
                    double[] up = theta.clone();
                    double[] down = theta.clone();
                    up[k] += STEP;
                    down[k] -= STEP;
                    value = (logPosterior(model, up) - 2 * center + logPosterior(model, down)) / (STEP * STEP);
                } else {
                    value = (shifted(model, theta, k, q, STEP, STEP) - shifted(model, theta, k, q, STEP, -STEP)
                            - shifted(model, theta, k, q, -STEP, STEP) + shifted(model, theta, k, q, -STEP, -STEP))
                            / (4 * STEP * STEP);
                }
                h[k * d + q] = value;
                h[q * d + k] = value;
            }
        }
        return h;
    }

    private static double shifted(Glmm model, double[] theta, int k, int q, double a, double b) {
        double[] t = theta.clone();
        t[k] += a;
        t[q] += b;
        return logPosterior(model, t);
    }
}
