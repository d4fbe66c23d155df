package org.logz.path;

import org.logz.numeric.Cholesky;

/**
 * The precisions {@code S^(n) = Σ_[n]⁻¹} of the leading n × n blocks of {@code Σ = K + I}, grown one
 * case at a time by the block inverse of the ARM paper's Appendix A.3:
 * <pre>
 * ς = (Σ_{n+1,n+1} - Σ_{[n],n+1}ᵀ S^(n) Σ_{[n],n+1})⁻¹,  s = -ς S^(n) Σ_{[n],n+1},
 * S^(n+1) = [[S^(n) + s sᵀ/ς, s], [sᵀ, ς]]
 * </pre>
 * (O(n²) per case instead of a fresh O(n³) inverse). The Schur complement cancels when σ² is large,
 * so rounding accumulates: after the first case, then at doubling intervals up to every
 * {@value #CHECK_EVERY} cases (and at the last), two columns
 * of S are compared with solves against a fresh Cholesky factor of {@code Σ_[n]}; when they differ
 * by more than {@value #DRIFT_LIMIT} relative, S is replaced by the fresh inverse and the next check
 * comes twice as soon (down to every case). The largest drift seen, the re-factorizations and an
 * estimate of the condition number are reported. Also tracks {@code log |Σ_[n]|}. Host-side, float64.
 */
public final class GpcPrecision {
    /** The longest run of cases between drift checks. */
    public static final int CHECK_EVERY = 50;
    /**
     * Relative drift beyond which S is recomputed from a fresh factorization. On the shipped sets at the
     * paper's hyperparameters the growth drifts about 1e-5 per 50 cases, which moved ARM's log Z by less
     * than 1e-6 nats; at log σ = 7 it drifts 1e-2 and rm's log Z fell 48 nats.
     */
    public static final double DRIFT_LIMIT = 1e-4;

    private final double[] sigma;
    private final int size;
    private double[] s = new double[0];
    private double[] previous;
    private int n;
    private double logDet;
    private double previousLogDet;
    private double maxDrift;
    private int refactorizations;
    private int interval = 1;
    private int sinceCheck;
    private double condition = 1;

    /** @param sigma Σ = K + I, size × size row-major (read, not copied: the caller keeps it unchanged) */
    public GpcPrecision(double[] sigma, int size) {
        this.sigma = sigma;
        this.size = size;
    }

    /**
     * {@code S^(m)}, m × m row-major; shared, read only, valid until the next call. The last two sizes
     * are kept (ARM moves generated particles at n after smoothing at n + 1); an older size starts the
     * growth again from the beginning.
     */
    public double[] at(int m) {
        if (m == n - 1 && previous != null) {
            return previous;
        }
        if (m < n) {
            n = 0;
            s = new double[0];
            previous = null;
            logDet = 0;
            sinceCheck = 0;
        }
        while (n < m) {
            grow();
        }
        return s;
    }

    /** {@code log |Σ_[m]|}. */
    public double logDet(int m) {
        at(m);
        return m == n - 1 ? previousLogDet : logDet;
    }

    /** The largest relative drift of the grown precision against a fresh factorization so far. */
    public double maxDrift() {
        return maxDrift;
    }

    /**
     * An estimate of the condition number of {@code Σ_[n]} from the fresh factorizations so far
     * ({@code n · max Σ_ii / min pivot²}, at least the true one up to the factor n): S and the Gibbs
     * conditionals are good to about {@code condition · 1e-16} relative.
     */
    public double conditionEstimate() {
        return condition;
    }

    /** How often the grown precision was replaced by a fresh inverse. */
    public int refactorizations() {
        return refactorizations;
    }

    private void grow() {
        int m = n + 1;
        double[] q = new double[n];
        for (int i = 0; i < n; i++) {
            double acc = 0;
            for (int j = 0; j < n; j++) {
                acc += s[i * n + j] * sigma[j * size + n];
            }
            q[i] = acc;
        }
        double schur = sigma[n * size + n];
        for (int i = 0; i < n; i++) {
            schur -= sigma[i * size + n] * q[i];
        }
        double varsigma = 1 / schur;
        double[] next = new double[m * m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                next[i * m + j] = s[i * n + j] + varsigma * q[i] * q[j];
            }
            next[i * m + n] = -varsigma * q[i];
            next[n * m + i] = -varsigma * q[i];
        }
        next[n * m + n] = varsigma;
        previous = s;
        previousLogDet = logDet;
        s = next;
        n = m;
        logDet += Math.log(schur);
        if (++sinceCheck >= interval || n == size) {
            check();
        }
    }

    /** Columns 0 and n-1 of S against solves with a fresh factor; the full inverse when they drifted. */
    private void check() {
        double[] block = new double[n * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(sigma, i * size, block, i * n, n);
        }
        double[] l = Cholesky.lower(block, n);
        if (l == null) {
            throw new IllegalStateException("Σ_[" + n + "] lost positive definiteness; K + I was checked at load");
        }
        double drift = 0;
        double scale = 0;
        for (int column : new int[] {0, n - 1}) {
            double[] fresh = Cholesky.inverseColumn(l, n, column);
            for (int i = 0; i < n; i++) {
                drift = Math.max(drift, Math.abs(s[i * n + column] - fresh[i]));
                scale = Math.max(scale, Math.abs(fresh[i]));
            }
        }
        double relative = drift / scale;
        maxDrift = Math.max(maxDrift, relative);
        double largest = 0;
        double smallestPivot = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            largest = Math.max(largest, block[i * n + i]);
            smallestPivot = Math.min(smallestPivot, l[i * n + i] * l[i * n + i]);
        }
        condition = Math.max(condition, n * largest / smallestPivot);
        sinceCheck = 0;
        // a drifting growth is checked more often (down to every case), a steady one less often
        interval = relative > DRIFT_LIMIT ? Math.max(1, interval / 2)
                : relative < DRIFT_LIMIT / 10 ? Math.min(CHECK_EVERY, 2 * interval) : interval;
        if (relative > DRIFT_LIMIT) {
            for (int column = 0; column < n; column++) {
                double[] fresh = Cholesky.inverseColumn(l, n, column);
                for (int i = 0; i < n; i++) {
                    s[i * n + column] = fresh[i];
                }
            }
            logDet = 0;
            for (int i = 0; i < n; i++) {
                logDet += 2 * Math.log(l[i * n + i]);
            }
            refactorizations++;
        }
    }
}
