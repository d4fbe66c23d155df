package org.logz.estimate.tempered;

import java.util.Arrays;

import org.logz.backend.TemperingSteps;
import org.logz.base.UserException;

/**
 * What simulated tempering accumulated over one stretch of iterations, in the layout of
 * {@link org.logz.backend.Tempering#statistics()}, and the estimators that read it (Carlson et al.
 * 2016). Levels are indexed from 0 (β = 0, the base, whose normalizer is known) to K - 1 (β = 1).
 *
 * @param levelBetas the ladder β_0 = 0 &lt; ... &lt; β_{K-1} = 1
 * @param values     5K sums: Σ q(β_k|x), Σ q(β_k|x)·slope_k, Σ slope at level k, visits of level k, Σ slope² at
 *                   level k
 * @param samples    chain states the sums ran over (chains × iterations)
 */
public record LevelStatistics(double[] levelBetas, double[] values, long samples) {
    public LevelStatistics {
        levelBetas = levelBetas.clone();
        values = values.clone();
        if (values.length != TemperingSteps.SUMS * levelBetas.length) {
            throw new UserException("statistics of " + levelBetas.length + " levels need "
                    + TemperingSteps.SUMS * levelBetas.length + " values, got " + values.length);
        }
        if (samples < 1) {
            throw new UserException("statistics need at least one sample");
        }
    }

    /** A copy of the ladder. */
    @Override
    public double[] levelBetas() {
        return levelBetas.clone();
    }

    /** A copy of the sums. */
    @Override
    public double[] values() {
        return values.clone();
    }

    public int levels() {
        return levelBetas.length;
    }

    /** {@code ĉ_k = (1/N) Σ_i q(β_k | x_i)}, the Rao-Blackwellized level occupancy (eq. 9). */
    public double[] occupancy() {
        double[] c = new double[levels()];
        for (int k = 0; k < c.length; k++) {
            c[k] = values[k] / samples;
        }
        return c;
    }

    /** How often each level was visited. */
    public long[] visits() {
        long[] v = new long[levels()];
        for (int k = 0; k < v.length; k++) {
            v[k] = Math.round(values[3 * levels() + k]);
        }
        return v;
    }

    /**
     * TS, the estimator of eq. 12 on visit counts instead of the Rao-Blackwellized occupancies: {@code ĉ_k} is level
     * k's share of the visits with 0.1 added to each level's count, as Carlson et al. do for their non-Rao-Blackwellized
     * curves (§2.4, Fig. 1), so that a level no chain visited moves by a finite amount.
     */
    public double[] ts(double[] logZHat, double[] logPrior) {
        int k = levels();
        double[] out = new double[k];
        double base = Math.log(values[3 * k] + TS_PSEUDO_COUNT) - logPrior[0];
        for (int i = 0; i < k; i++) {
            out[i] = i == 0 ? logZHat[0]
                    : logZHat[i] + Math.log(values[3 * k + i] + TS_PSEUDO_COUNT) - logPrior[i] - base;
        }
        return out;
    }

    /** The count Carlson et al. add to each level's visits for TS (§2.4). */
    static final double TS_PSEUDO_COUNT = 0.1;

    /**
     * The RTS update (eq. 12) in log space: {@code log Ẑ_k + log r_0 - log r_k + log ĉ_k - log ĉ_0}.
     * Levels whose occupancy underflowed to zero get {@code log ĉ_k = log(Double.MIN_NORMAL)}, which
     * lowers their {@code Ẑ_k} and so raises their occupancy in the next round.
     */
    public double[] rts(double[] logZHat, double[] logPrior) {
        return rts(logZHat, logPrior, Double.MIN_NORMAL);
    }

    /**
     * {@link #rts(double[], double[])} with every occupancy taken as at least {@code least}: for updates from few
     * samples, where a level the chains missed would otherwise move its {@code Ẑ_k} by 700 nats (Carlson et al. add 0.1
     * to each bin of TS's counts for the same reason).
     */
    public double[] rts(double[] logZHat, double[] logPrior, double least) {
        double[] c = occupancy();
        double[] out = new double[levels()];
        double base = Math.log(Math.max(c[0], least)) - logPrior[0];
        for (int k = 0; k < out.length; k++) {
            out[k] = k == 0 ? logZHat[0] : logZHat[k] + Math.log(Math.max(c[k], least)) - logPrior[k] - base;
        }
        return out;
    }

    /** {@code max_k |r_k - ĉ_k|}, how far the occupancies are from the prior (§2.4's stopping rule). */
    public double deviation(double[] logPrior) {
        double[] c = occupancy();
        double worst = 0;
        for (int k = 0; k < c.length; k++) {
            worst = Math.max(worst, Math.abs(Math.exp(logPrior[k]) - c[k]));
        }
        return worst;
    }

    /**
     * Thermodynamic integration (§3.4): {@code log Z_k - log Z_0} by the trapezoid rule over the
     * mean slope of the states visited at each level, the last entry (β = 1) corrected by Richardson's extrapolation
     * ({@link Trapezoid#error}); levels never visited take the slope interpolated linearly in β from their visited
     * neighbours. The hostile review found the plain trapezoid 1.4 to 4.9 of its batch-means errors low on a cold
     * 64×16 RBM at the defaults (100 levels): the mean slope bends between levels, which batch means cannot see.
     */
    public double[] ti(double logZ0) {
        return Trapezoid.extrapolated(levelBetas, tiSlopes(), logZ0);
    }

    /**
     * TI-RB (eq. 21): the slope at β_k as {@code Σ_i q(β_k|x_i) slope_k(x_i) / Σ_i q(β_k|x_i)},
     * then the trapezoid rule, corrected at β = 1 as {@link #ti}. A level whose total weight underflowed takes an
     * interpolated slope.
     */
    public double[] tiRb(double logZ0) {
        return Trapezoid.extrapolated(levelBetas, tiRbSlopes(), logZ0);
    }

    /**
     * TI by the right Riemann sum, {@code log Z_j = log Z_0 + Σ_{i ≤ j} (β_i - β_{i-1}) E_i[slope]} (Carlson et al.
     * Fig. 2's "TI Riemann"): first order in the steps, so its discretization error is about {@link #riemannError}.
     */
    public double[] tiRiemann(double logZ0) {
        double[] slope = tiSlopes();
        double[] out = new double[slope.length];
        out[0] = logZ0;
        for (int j = 1; j < slope.length; j++) {
            out[j] = out[j - 1] + (levelBetas[j] - levelBetas[j - 1]) * slope[j];
        }
        return out;
    }

    /**
     * The leading term of the right Riemann sum's error at β = 1: its distance from the trapezoid rule,
     * {@code Σ (β_i - β_{i-1}) (E_i - E_{i-1}) / 2}, which the Riemann reading adds to its batch-means error (the sum is
     * biased by that much whatever the number of samples).
     */
    public double riemannError() {
        double[] slope = tiSlopes();
        double sum = 0;
        for (int j = 1; j < slope.length; j++) {
            sum += 0.5 * (levelBetas[j] - levelBetas[j - 1]) * (slope[j] - slope[j - 1]);
        }
        return Math.abs(sum);
    }

    /**
     * TI by the trapezoid rule with the correction of Friel, Hurn &amp; Wyse (2014, eq. 8), Carlson et al. Fig. 2's "TI
     * trap corrected": the trapezoid's error on [β_{i-1}, β_i] is about {@code -(Δβ²/12)(E'(β_i) - E'(β_{i-1}))}, and
     * the derivative of the mean slope is the variance of the slope, {@code V_i}, read from the states visited at level i
     * (levels with fewer than two visits take it interpolated from their neighbours).
     */
    public double[] tiFriel(double logZ0) {
        double[] slope = tiSlopes();
        double[] variance = slopeVariances();
        double[] out = Trapezoid.curve(levelBetas, slope, logZ0);
        double correction = 0;
        for (int j = 1; j < out.length; j++) {
            double step = levelBetas[j] - levelBetas[j - 1];
            correction -= step * step / 12 * (variance[j] - variance[j - 1]);
            out[j] += correction;
        }
        return out;
    }

    private double[] slopeVariances() {
        int k = levels();
        double[] variance = new double[k];
        boolean[] known = new boolean[k];
        boolean any = false;
        for (int i = 0; i < k; i++) {
            double n = values[3 * k + i];
            known[i] = n > 1;
            any |= known[i];
            if (known[i]) {
                double mean = values[2 * k + i] / n;
                variance[i] = Math.max(0, (values[4 * k + i] / n - mean * mean) * n / (n - 1));
            }
        }
        if (any) {
            // with no level visited twice there is no variance to read, and no correction
            fillGaps(variance, known);
        }
        return variance;
    }

    private double[] tiSlopes() {
        int k = levels();
        double[] slope = new double[k];
        boolean[] known = new boolean[k];
        for (int i = 0; i < k; i++) {
            double visits = values[3 * k + i];
            known[i] = visits > 0;
            slope[i] = known[i] ? values[2 * k + i] / visits : Double.NaN;
        }
        fillGaps(slope, known);
        return slope;
    }

    private double[] tiRbSlopes() {
        int k = levels();
        double[] slope = new double[k];
        boolean[] known = new boolean[k];
        for (int i = 0; i < k; i++) {
            known[i] = values[i] > 0;
            slope[i] = known[i] ? values[k + i] / values[i] : Double.NaN;
        }
        fillGaps(slope, known);
        return slope;
    }

    /** Linear interpolation in β between known neighbours; the nearest known value beyond the ends. */
    private void fillGaps(double[] slope, boolean[] known) {
        int k = slope.length;
        int previous = -1;
        for (int i = 0; i < k; i++) {
            if (!known[i]) {
                continue;
            }
            if (previous < 0) {
                for (int j = 0; j < i; j++) {
                    slope[j] = slope[i];
                }
            } else {
                for (int j = previous + 1; j < i; j++) {
                    double t = (levelBetas[j] - levelBetas[previous]) / (levelBetas[i] - levelBetas[previous]);
                    slope[j] = (1 - t) * slope[previous] + t * slope[i];
                }
            }
            previous = i;
        }
        if (previous < 0) {
            throw new IllegalStateException("no level was visited");
        }
        for (int j = previous + 1; j < k; j++) {
            slope[j] = slope[previous];
        }
    }

    /**
     * Each chain group's statistics over {@code iterations} iterations of {@code chains} chains in {@code groups} groups
     * (chain r in group r mod G), from the per-block sums of {@link org.logz.backend.Tempering#statistics()}, the blocks
     * added in block order ({@link TemperingSteps#groupSums}).
     */
    public static LevelStatistics[] byGroup(double[] levelBetas, double[] blockStatistics, int chains, int groups,
                                            long iterations) {
        int k = levelBetas.length;
        if (blockStatistics.length != TemperingSteps.statisticsLength(chains, k, groups)) {
            throw new IllegalArgumentException("the parts returned " + blockStatistics.length + " sums for a run of "
                    + chains + " chains");
        }
        double[] values = TemperingSteps.groupSums(blockStatistics, k, groups);
        LevelStatistics[] out = new LevelStatistics[groups];
        for (int g = 0; g < groups; g++) {
            long members = (chains - g + groups - 1) / groups;
            int width = TemperingSteps.SUMS * k;
            out[g] = new LevelStatistics(levelBetas, Arrays.copyOfRange(values, width * g, width * (g + 1)),
                    iterations * members);
        }
        return out;
    }

    /** The statistics of all the given stretches or groups together. */
    public static LevelStatistics sum(LevelStatistics... parts) {
        LevelStatistics all = parts[0];
        for (int i = 1; i < parts.length; i++) {
            all = all.plus(parts[i]);
        }
        return all;
    }

    public LevelStatistics plus(LevelStatistics other) {
        double[] sum = values.clone();
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other.values[i];
        }
        return new LevelStatistics(levelBetas, sum, samples + other.samples);
    }
}
