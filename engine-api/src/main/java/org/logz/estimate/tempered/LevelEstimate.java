package org.logz.estimate.tempered;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;

/**
 * One estimator's reading of a tempered run.
 *
 * @param method one of {@link TemperedSampling.Settings#ESTIMATORS}
 * @param logZ   the estimate of the target's log Z (the curve's last entry)
 * @param stdErr batch-means standard error over G groups of chains, each estimated on its own (ti-riemann: with its
 *               discretization error added in quadrature)
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

    /** The estimate of {@code name} among {@code estimates}; a user error naming the run where it has none. */
    static LevelEstimate find(List<LevelEstimate> estimates, Method name, String run) {
        for (LevelEstimate e : estimates) {
            if (e.method() == name) {
                return e;
            }
        }
        throw new UserException("this " + run + " run has no " + name + " estimate"
                + (name == Method.MBAR ? " (no samples were kept for MBAR)" : ""));
    }

    /**
     * {@code estimators-disagree} when an estimate other than the headline's differs from it beyond their standard
     * errors ({@link Warning#disagree}), naming each such one.
     */
    static Optional<Warning> disagreement(List<LevelEstimate> estimates, Method headline, String run) {
        LevelEstimate h = find(estimates, headline, run);
        List<String> others = new ArrayList<>();
        for (LevelEstimate e : estimates) {
            if (e.method() != headline && Warning.disagree(h.logZ(), h.stdErr(), e.logZ(), e.stdErr())) {
                others.add(e.stdErr() > 0 ? String.format(Locale.ROOT, "%s %.4f ± %.4f", e.method(), e.logZ(), e.stdErr())
                        : String.format(Locale.ROOT, "%s %.4f (no error measured)", e.method(), e.logZ()));
            }
        }
        return others.isEmpty() ? Optional.empty()
                : Optional.of(Warning.estimatorsDisagree(headline, h.logZ(), String.join(", ", others)));
    }

    /** This estimate with {@code systematic}, a bias no number of samples removes, added to its error in quadrature. */
    LevelEstimate withSystematic(double systematic) {
        return new LevelEstimate(method, logZ, Math.hypot(stdErr, systematic), curve);
    }

    /** This estimate with its standard error multiplied by {@code factor}. */
    LevelEstimate scaled(double factor) {
        return new LevelEstimate(method, logZ, stdErr * factor, curve);
    }

    /** The estimate of {@code curve} with the batch-means standard error of the groups' last entries. */
    public static LevelEstimate of(Method method, double[] curve, List<double[]> batchCurves) {
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
