package org.logz.estimate.mbar;

import org.logz.base.UserException;
import org.logz.numeric.LogSpace;
import org.logz.numeric.SymmetricEigen;

/**
 * The multistate Bennett acceptance ratio (Shirts &amp; Chodera, J. Chem. Phys. 129, 124105, 2008):
 * from N samples drawn from K states ({@code counts[k]} from state k) and the reduced potential of
 * every sample in every state, {@code u[k][n] = -log f_k(x_n)}, the dimensionless free energies
 * {@code f_k = -log Z_k} (relative to {@code f_0 = 0}) solve
 * <pre>  f_i = -log Σ_n exp(-u_in) / Σ_k N_k exp(f_k - u_kn).</pre>
 * Solved in log space: self-consistent iterations to get close, then Newton steps on the
 * self-consistency conditions {@code Σ_n W_ni = 1}, falling back to an iteration whenever a Newton
 * step does not reduce their residual. Uncertainties are pymbar's "svd-ew"
 * asymptotic covariance (Appendix D of the paper).
 */
public final class Mbar {
    /** The iterations stop once max |1 - Σ_n W_ni| is this small. */
    private static final double TOLERANCE = 1e-13;
    /** The largest residual {@link #converged()} accepts: far below any sampling error of the f_k. */
    private static final double CONVERGED = 1e-8;
    private static final int MAX_ITERATIONS = 10_000;

    private final double[][] u;
    private final int[] counts;
    private final double[] f;
    private final int k;
    private final int n;
    private double residual;

    private Mbar(double[][] u, int[] counts, double[] f) {
        this.u = u;
        this.counts = counts;
        this.f = f;
        this.k = counts.length;
        this.n = u[0].length;
    }

    /**
     * Solves MBAR.
     *
     * @param u      reduced potentials, K × N; samples may come in any order
     * @param counts samples drawn from each state; they sum to N
     */
    public static Mbar solve(double[][] u, int[] counts) {
        return solve(u, counts, new double[counts.length]);
    }

    /**
     * Solves MBAR from an initial guess of the free energies (e.g. another estimator's): iterations
     * from a close start are few.
     *
     * @param initial {@code f_k} to start from (shifted so that {@code f_0 = 0})
     */
    public static Mbar solve(double[][] u, int[] counts, double[] initial) {
        int k = counts.length;
        if (initial.length != k) {
            throw new UserException("MBAR needs one initial free energy per state, got " + initial.length);
        }
        if (k < 2 || u.length != k) {
            throw new UserException("MBAR needs at least two states and one row of u per state");
        }
        int n = u[0].length;
        long total = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new UserException("negative sample count");
            }
            total += c;
        }
        if (total != n) {
            throw new UserException("sample counts sum to " + total + ", but u has " + n + " samples");
        }
        for (double[] row : u) {
            if (row.length != n) {
                throw new UserException("rows of u differ in length");
            }
            for (double v : row) {
                if (!Double.isFinite(v)) {
                    throw new UserException("a reduced potential is " + v + "; all must be finite");
                }
            }
        }
        double[] start = new double[k];
        for (int i = 0; i < k; i++) {
            start[i] = initial[i] - initial[0];
            if (!Double.isFinite(start[i])) {
                throw new UserException("initial free energy " + i + " is " + initial[i]);
            }
        }
        Mbar m = new Mbar(u, counts, start);
        m.iterate();
        return m;
    }

    /** log Σ_k N_k exp(f_k - u_kn) for every sample: the log of the mixture denominator. */
    private double[] logDenominators(double[] free) {
        double[] out = new double[n];
        double[] terms = new double[k];
        for (int s = 0; s < n; s++) {
            int used = 0;
            for (int i = 0; i < k; i++) {
                if (counts[i] > 0) {
                    terms[used++] = Math.log(counts[i]) + free[i] - u[i][s];
                }
            }
            out[s] = LogSpace.logSumExp(terms, used);
        }
        return out;
    }

    /** The self-consistent update of every f_i, shifted so that f_0 = 0. */
    private double[] selfConsistent(double[] free) {
        double[] logD = logDenominators(free);
        double[] next = new double[k];
        double[] terms = new double[n];
        for (int i = 0; i < k; i++) {
            for (int s = 0; s < n; s++) {
                terms[s] = -u[i][s] - logD[s];
            }
            next[i] = -LogSpace.logSumExp(terms);
        }
        double shift = next[0];
        for (int i = 0; i < k; i++) {
            next[i] -= shift;
        }
        return next;
    }

    private void iterate() {
        double[] free = f.clone();
        double residual = residual(free);
        for (int iteration = 0; iteration < MAX_ITERATIONS && residual > TOLERANCE; iteration++) {
            double[] next = newtonStep(free);
            double nextResidual = next == null ? Double.POSITIVE_INFINITY : residual(next);
            if (!(nextResidual < residual)) {
                next = selfConsistent(free);
                nextResidual = residual(next);
            }
            double change = 0;
            for (int i = 0; i < k; i++) {
                change = Math.max(change, Math.abs(next[i] - free[i]));
            }
            // once converged, a step that no longer halves the residual has met the rounding floor (about
            // 1e-12 with 10^4 samples, above TOLERANCE): stop there instead of running out the cap
            boolean stalled = residual <= CONVERGED && !(nextResidual < 0.5 * residual);
            if (!stalled || nextResidual <= residual) {
                free = next;
                residual = nextResidual;
            }
            if (change == 0 || stalled) {
                break;
            }
        }
        System.arraycopy(free, 0, f, 0, k);
        this.residual = residual;
    }

    /** max over sampled states of {@code |1 - Σ_n W_ni|} at the returned free energies. */
    public double residual() {
        return residual;
    }

    /**
     * Whether the self-consistent equations were solved (residual at most 1e-8) within the iteration
     * cap; otherwise the free energies are the last iterate, and callers report it.
     */
    public boolean converged() {
        return residual <= CONVERGED;
    }

    /** max over sampled states of |1 - Σ_n W_ni|: zero at the solution. */
    private double residual(double[] free) {
        double[] logD = logDenominators(free);
        double worst = 0;
        double[] terms = new double[n];
        for (int i = 0; i < k; i++) {
            if (counts[i] == 0) {
                continue;
            }
            for (int s = 0; s < n; s++) {
                terms[s] = free[i] - u[i][s] - logD[s];
            }
            worst = Math.max(worst, Math.abs(1.0 - Math.exp(LogSpace.logSumExp(terms))));
        }
        return worst;
    }

    /**
     * A Newton step on the free energies of sampled states (Shirts &amp; Chodera eq. C9-C10), or null
     * when it would not reduce the self-consistency residual.
     */
    private double[] newtonStep(double[] free) {
        double[] logD = logDenominators(free);
        int[] index = sampledStates();
        int m = index.length;
        if (m < 2) {
            return null;
        }
        // W_ns = exp(f_i - u_in - logD_n): normalized weights; gradient g_i = N_i (1 - Σ_n W_ni)
        double[][] w = new double[m][n];
        double[] colSum = new double[m];
        for (int a = 0; a < m; a++) {
            int i = index[a];
            for (int s = 0; s < n; s++) {
                w[a][s] = Math.exp(free[i] - u[i][s] - logD[s]);
                colSum[a] += w[a][s];
            }
        }
        double[] g = new double[m];
        for (int a = 0; a < m; a++) {
            g[a] = counts[index[a]] * (1.0 - colSum[a]);
        }
        // H = -∂g/∂f: H_ab = δ_ab N_a Σ_n W_na - N_a N_b Σ_n W_na W_nb, on states 1..m-1 (f of index[0] fixed);
        // the Newton step is f + H⁻¹ g
        int d = m - 1;
        double[][] h = new double[d][d];
        for (int a = 1; a < m; a++) {
            for (int b = a; b < m; b++) {
                double dot = 0;
                for (int s = 0; s < n; s++) {
                    dot += w[a][s] * w[b][s];
                }
                double value = -(double) counts[index[a]] * counts[index[b]] * dot;
                if (a == b) {
                    value += counts[index[a]] * colSum[a];
                }
                h[a - 1][b - 1] = value;
                h[b - 1][a - 1] = value;
            }
        }
        double[] rhs = new double[d];
        for (int a = 1; a < m; a++) {
            rhs[a - 1] = g[a];
        }
        double[] step = solve(h, rhs);
        if (step == null) {
            return null;
        }
        double[] next = free.clone();
        for (int a = 1; a < m; a++) {
            next[index[a]] = free[index[a]] + step[a - 1];
        }
        double base = next[index[0]];
        for (int i = 0; i < k; i++) {
            next[i] -= base;
        }
        // states without samples follow from the self-consistent equation
        double[] filled = selfConsistent(next);
        for (int i = 0; i < k; i++) {
            if (counts[i] == 0) {
                next[i] = filled[i];
            }
        }
        double shift = next[0];
        for (int i = 0; i < k; i++) {
            next[i] -= shift;
        }
        return next;
    }

    private int[] sampledStates() {
        int m = 0;
        for (int c : counts) {
            m += c > 0 ? 1 : 0;
        }
        int[] index = new int[m];
        int at = 0;
        for (int i = 0; i < k; i++) {
            if (counts[i] > 0) {
                index[at++] = i;
            }
        }
        return index;
    }

    /** Solves a·x = b by Gaussian elimination with partial pivoting; null when singular. */
    private static double[] solve(double[][] a, double[] b) {
        int d = b.length;
        double[][] m = new double[d][];
        for (int i = 0; i < d; i++) {
            m[i] = java.util.Arrays.copyOf(a[i], d + 1);
            m[i][d] = b[i];
        }
        for (int c = 0; c < d; c++) {
            int pivot = c;
            for (int r = c + 1; r < d; r++) {
                if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
                    pivot = r;
                }
            }
            if (Math.abs(m[pivot][c]) < 1e-300) {
                return null;
            }
            double[] t = m[c];
            m[c] = m[pivot];
            m[pivot] = t;
            for (int r = c + 1; r < d; r++) {
                double factor = m[r][c] / m[c][c];
                for (int j = c; j <= d; j++) {
                    m[r][j] -= factor * m[c][j];
                }
            }
        }
        double[] x = new double[d];
        for (int r = d - 1; r >= 0; r--) {
            double s = m[r][d];
            for (int j = r + 1; j < d; j++) {
                s -= m[r][j] * x[j];
            }
            x[r] = s / m[r][r];
        }
        return x;
    }

    /** {@code f_k = -log(Z_k / Z_0)}. */
    public double[] freeEnergies() {
        return f.clone();
    }

    /** {@code log(Z_j / Z_i) = f_i - f_j}. */
    public double logRatio(int i, int j) {
        return f[i] - f[j];
    }

    /**
     * Standard errors of {@code f_j - f_i} for all pairs, from pymbar's "svd-ew" asymptotic
     * covariance {@code Θ = V Σ (I - Σ Vᵀ N V Σ)⁺ Σ Vᵀ}, with {@code V, Σ²} the eigen-decomposition of
     * {@code WᵀW} and W the N × K matrix of normalized weights.
     */
    public double[][] stdErrs() {
        double[] logD = logDenominators(f);
        double[][] wtw = new double[k][k];
        double[][] w = new double[k][n];
        for (int i = 0; i < k; i++) {
            for (int s = 0; s < n; s++) {
                w[i][s] = Math.exp(f[i] - u[i][s] - logD[s]);
            }
        }
        for (int i = 0; i < k; i++) {
            for (int j = i; j < k; j++) {
                double dot = 0;
                for (int s = 0; s < n; s++) {
                    dot += w[i][s] * w[j][s];
                }
                wtw[i][j] = dot;
                wtw[j][i] = dot;
            }
        }
        SymmetricEigen e = SymmetricEigen.of(wtw);
        double[] sigma = new double[k];
        for (int i = 0; i < k; i++) {
            sigma[i] = Math.sqrt(Math.max(e.value(i), 0.0));
        }
        // M = I - Σ Vᵀ N V Σ
        double[][] inner = new double[k][k];
        for (int a = 0; a < k; a++) {
            for (int b = 0; b < k; b++) {
                double s = 0;
                for (int i = 0; i < k; i++) {
                    s += e.vector(i, a) * counts[i] * e.vector(i, b);
                }
                inner[a][b] = (a == b ? 1.0 : 0.0) - sigma[a] * s * sigma[b];
            }
        }
        double[][] pinv = SymmetricEigen.of(inner).pseudoInverse(1e-10);
        // Θ = (V Σ) pinv (V Σ)ᵀ
        double[][] vs = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int a = 0; a < k; a++) {
                vs[i][a] = e.vector(i, a) * sigma[a];
            }
        }
        double[][] theta = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                double s = 0;
                for (int a = 0; a < k; a++) {
                    double t = 0;
                    for (int b = 0; b < k; b++) {
                        t += pinv[a][b] * vs[j][b];
                    }
                    s += vs[i][a] * t;
                }
                theta[i][j] = s;
            }
        }
        double[][] out = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                out[i][j] = Math.sqrt(Math.max(theta[i][i] + theta[j][j] - 2 * theta[i][j], 0.0));
            }
        }
        return out;
    }
}
