package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import org.logz.numeric.LogSpace;

/**
 * What a stretch of parallel tempering adds up, per ladder: each level's sum of {@code d log f_β/dβ} over the states
 * drawn there (thermodynamic integration), and for each neighbouring pair the two sums of Bennett's acceptance ratio
 * with a fixed constant C_k, which read every iteration instead of a thinned sample.
 *
 * <p>For any C the acceptance-ratio identity (Bennett 1976, eq. 7 with the Fermi function) gives
 * <pre>  log Z_{k+1} - log Z_k = C + log E_k[σ(w_F - C)] - log E_{k+1}[σ(w_R + C)],</pre>
 * with {@code w_F = log f_{k+1}(x) - log f_k(x)} for x drawn at level k, {@code w_R = log f_k(y) - log f_{k+1}(y)}
 * for y drawn at level k + 1 and σ the logistic function; C only sets the variance, least at {@code C = ΔF} with
 * equal sample sizes, as here. So the sums can run over the whole final run with C from the burn-in's estimate,
 * where BAR's self-consistent solution would need every work value kept. The sums are kept in log space.
 */
final class PtSums {
    private final int ladders;
    private final int k;
    private final double[] betas;
    private final double[] constants;
    private final double[] slopes;
    private final LogSums forward;
    private final LogSums reverse;
    private long iterations;

    /**
     * @param betas     the ladder the sums run at
     * @param constants Bennett's C_k for each pair (K - 1), or null for the slopes alone
     */
    PtSums(int ladders, double[] betas, double[] constants) {
        this.ladders = ladders;
        this.k = betas.length;
        this.betas = betas.clone();
        this.constants = constants == null ? null : constants.clone();
        this.slopes = new double[ladders * k];
        this.forward = constants == null ? null : new LogSums(ladders * (k - 1));
        this.reverse = constants == null ? null : new LogSums(ladders * (k - 1));
    }

    long iterations() {
        return iterations;
    }

    /**
     * One iteration: every chain's level before the swaps, the slope there, and (with constants) its log densities at
     * its own level and the levels below and above it ({@link ReplicaExchange#neighbourIndices()}).
     */
    void add(int[] levels, double[] ownSlopes, double[] neighbours) {
        int n = levels.length;
        for (int c = 0; c < n; c++) {
            int g = c / k;
            int l = levels[c];
            slopes[g * k + l] += ownSlopes[c];
            if (constants == null) {
                continue;
            }
            double own = neighbours[c];
            if (l + 1 < k) {
                forward.add(g * (k - 1) + l, logSigmoid(neighbours[2 * n + c] - own - constants[l]));
            }
            if (l > 0) {
                reverse.add(g * (k - 1) + l - 1, logSigmoid(neighbours[n + c] - own + constants[l - 1]));
            }
        }
        iterations++;
    }

    /** {@code log σ(t) = -log(1 + e^-t)}, without overflow for either sign. */
    static double logSigmoid(double t) {
        return -LogSpace.softplus(-t);
    }

    /** The mean slope at each level over every ladder. */
    double[] meanSlopes() {
        double[] mean = new double[k];
        for (int g = 0; g < ladders; g++) {
            for (int j = 0; j < k; j++) {
                mean[j] += slopes[g * k + j] / ((double) iterations * ladders);
            }
        }
        return mean;
    }

    /** The mean slope at each level of ladder g. */
    double[] meanSlopes(int g) {
        double[] mean = new double[k];
        for (int j = 0; j < k; j++) {
            mean[j] = slopes[g * k + j] / iterations;
        }
        return mean;
    }

    /** {@code log Z_j = log Z_0 + ∫_0^{β_j} E[d log f/dβ] dβ} of these mean slopes by the trapezoid rule. */
    double[] ti(double logZ0, double[] meanSlope) {
        return Trapezoid.curve(betas, meanSlope, logZ0);
    }

    /**
     * {@code log Z_j} by thermodynamic integration of these mean slopes: the trapezoid rule, its last entry (β = 1)
     * corrected by Richardson's extrapolation ({@link Trapezoid#error}). Without it, TI's z-scores on the demo RBM with
     * 16 levels had an RMS of 3.1 (the mean slope bends between levels, which batch means cannot see); with it, 1.37
     * there and 1.66 on the 6×6 Ising model with 48 levels and 1000 sweeps (an uneven ladder leaves part of the error).
     */
    double[] tiExtrapolated(double logZ0, double[] meanSlope) {
        return Trapezoid.extrapolated(betas, meanSlope, logZ0);
    }

    /** Bennett's C_k from the mean slopes: each pair's ΔF by the trapezoid rule. */
    double[] constants() {
        double[] mean = meanSlopes();
        double[] c = new double[k - 1];
        for (int j = 0; j + 1 < k; j++) {
            c[j] = 0.5 * (mean[j] + mean[j + 1]) * (betas[j + 1] - betas[j]);
        }
        return c;
    }

    /** The acceptance-ratio curve {@code log Z_j} from every ladder's sums (each pair's sums over ladders added). */
    double[] bar(double logZ0) {
        double[] curve = new double[k];
        curve[0] = logZ0;
        for (int j = 0; j + 1 < k; j++) {
            double f = Double.NEGATIVE_INFINITY;
            double r = Double.NEGATIVE_INFINITY;
            for (int g = 0; g < ladders; g++) {
                f = LogSpace.logAddExp(f, forward.log(g * (k - 1) + j));
                r = LogSpace.logAddExp(r, reverse.log(g * (k - 1) + j));
            }
            // both sums run over the same number of states (one per ladder and iteration)
            curve[j + 1] = curve[j] + constants[j] + f - r;
        }
        return curve;
    }

    /** The acceptance-ratio curve of ladder g alone. */
    double[] bar(double logZ0, int g) {
        double[] curve = new double[k];
        curve[0] = logZ0;
        for (int j = 0; j + 1 < k; j++) {
            curve[j + 1] = curve[j] + constants[j] + forward.log(g * (k - 1) + j) - reverse.log(g * (k - 1) + j);
        }
        return curve;
    }

    /** The curves of every ladder alone, by {@code estimator}. */
    List<double[]> perLadder(IntFunction<double[]> estimator) {
        List<double[]> out = new ArrayList<>(ladders);
        for (int g = 0; g < ladders; g++) {
            out.add(estimator.apply(g));
        }
        return out;
    }

    /** Sums of exponentials kept as (largest term, sum of e^(term - largest)) per cell. */
    private static final class LogSums {
        private final double[] max;
        private final double[] sum;

        LogSums(int cells) {
            max = new double[cells];
            sum = new double[cells];
            Arrays.fill(max, Double.NEGATIVE_INFINITY);
        }

        void add(int cell, double logTerm) {
            if (logTerm == Double.NEGATIVE_INFINITY) {
                return;
            }
            if (logTerm > max[cell]) {
                sum[cell] = sum[cell] * Math.exp(max[cell] - logTerm) + 1;
                max[cell] = logTerm;
            } else {
                sum[cell] += Math.exp(logTerm - max[cell]);
            }
        }

        double log(int cell) {
            return max[cell] + Math.log(sum[cell]);
        }
    }
}
