package org.logz.kernel;

import org.logz.numeric.Cholesky;
import org.logz.random.NormalStream;

/**
 * The random-walk Metropolis proposal that follows the particle cloud, shared by the pseudo-marginal kernel (Tran et
 * al. Algorithm 1 step iii) and data annealing's moves (Habeck §6.4): {@code θ' = θ + L ξ} with
 * {@code L Lᵀ = (2.38²/d) Σ + ridge} (Roberts &amp; Rosenthal's scaling), Σ the sample covariance of the particles moved
 * together, plus 1e-9 of each prior variance so that a collapsed cloud still moves; ξ the normals 0..d-1 of
 * {@link NormalStream} {@code (particle, step, tag)}; θ' rounded to float32. States are rows of {@code stride} floats
 * whose first d are θ.
 */
public final class RandomWalk {
    private static final double RW_SCALE = 2.38 * 2.38;
    private static final double RIDGE = 1e-9;

    private RandomWalk() {
    }

    /** The lower factor of {@code (2.38²/d) Σ + ridge}, Σ the sample covariance of the rows (row-major d × d). */
    public static double[] factor(float[] states, int count, int stride, int d, double[] priorSd) {
        double[] mean = new double[d];
        for (int r = 0; r < count; r++) {
            for (int k = 0; k < d; k++) {
                mean[k] += states[r * stride + k] / (double) count;
            }
        }
        double[] cov = new double[d * d];
        if (count > 1) {
            for (int r = 0; r < count; r++) {
                for (int k = 0; k < d; k++) {
                    double a = states[r * stride + k] - mean[k];
                    for (int q = 0; q <= k; q++) {
                        cov[k * d + q] += a * (states[r * stride + q] - mean[q]) / (count - 1);
                    }
                }
            }
        }
        for (int k = 0; k < d; k++) {
            for (int q = 0; q <= k; q++) {
                cov[k * d + q] *= RW_SCALE / d;
                cov[q * d + k] = cov[k * d + q];
            }
            cov[k * d + k] += RIDGE * priorSd[k] * priorSd[k];
        }
        double[] l = Cholesky.lower(cov, d);
        if (l == null) {
            l = new double[d * d];
            for (int k = 0; k < d; k++) {
                l[k * d + k] = Math.sqrt(cov[k * d + k]);
            }
        }
        return l;
    }

    /**
     * The proposals of rows {@code [0, count)} (count × d, float32), row r drawing as Philox particle
     * {@code firstParticle + r}.
     */
    public static float[] propose(float[] states, int count, int stride, int d, double[] factor, long seed, int firstParticle,
                           int step, int tag) {
        float[] proposed = new float[count * d];
        double[] xi = new double[d];
        for (int r = 0; r < count; r++) {
            NormalStream normals = new NormalStream(seed, firstParticle + r, step, tag);
            for (int k = 0; k < d; k++) {
                xi[k] = normals.at(k);
            }
            for (int k = 0; k < d; k++) {
                double s = 0;
                for (int q = 0; q <= k; q++) {
                    s += factor[k * d + q] * xi[q];
                }
                proposed[r * d + k] = (float) (states[r * stride + k] + s);
            }
        }
        return proposed;
    }

    /** Whether the move of Philox particle {@code particle} is accepted: {@code log u < logRatio}, u of block d. */
    public static boolean accept(double logRatio, long seed, int d, int particle, int step, int tag) {
        return Math.log(NormalStream.uniform(seed, d, particle, step, tag)) < logRatio;
    }
}
