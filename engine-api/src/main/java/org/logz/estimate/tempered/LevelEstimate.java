package org.logz.estimate.tempered;

import java.util.List;

import org.logz.estimate.Method;

/**
 * One estimator's reading of a tempered run.
 *
 * @param method {@code rts}, {@code ti}, {@code ti-rb} or {@code mbar}
 * @param logZ   the estimate of the target's log Z (the curve's last entry)
 * @param stdErr batch-means standard error over G groups of chains, each estimated on its own
 * @param curve  {@code log Z_k} at every level of the ladder
 */
public record LevelEstimate(Method method, double logZ, double stdErr, double[] curve) {
    public LevelEstimate {
        curve = curve.clone();
    }

    /** A copy of the curve. */
    @Override
    public double[] curve() {
        return curve.clone();
    }

    /** The estimate of {@code curve} with the batch-means standard error of the groups' last entries. */
    static LevelEstimate of(Method method, double[] curve, List<double[]> batchCurves) {
        int b = batchCurves.size();
        double mean = 0;
        for (double[] c : batchCurves) {
            mean += c[c.length - 1];
        }
        mean /= b;
        double ss = 0;
        for (double[] c : batchCurves) {
            double d = c[c.length - 1] - mean;
            ss += d * d;
        }
        double stdErr = Math.sqrt(ss / (b - 1) / b);
        return new LevelEstimate(method, curve[curve.length - 1], stdErr, curve);
    }
}
