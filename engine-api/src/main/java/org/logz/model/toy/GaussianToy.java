package org.logz.model.toy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.logz.base.UserException;
import org.logz.model.AnnealedMarginal;
import org.logz.model.TemperedModel;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The Gaussian toy of Habeck (2017, §4): a geometric bridge between Gaussians,
 * {@code log f_β(x) = -(1-β)(x - μ0)²/(2σ0²) - β(x - μ1)²/(2σ1²)}, so that {@code p_β} is Gaussian
 * with precision {@code (1-β)/σ0² + β/σ1²}, and Gaussian transition kernels
 * {@code T_β(x | x') = N(x; τ_β x' + (1-τ_β) μ_β, (1-τ_β²) σ_β²)} with
 * {@code τ_β = ((1-β)τ0 + βτ1)^power}: τ = 0 samples p_β exactly, τ → 1 barely moves, and a power n is
 * n applications of the kernel in one (Habeck's {@code GaussianKernel.power}). Everything is exact:
 * {@code log(Z_1/Z_0) = log(σ1/σ0)}.
 */
public record GaussianToy(double mu0, double sigma0, double tau0, double mu1, double sigma1, double tau1, int power)
        implements TemperedModel {
    public GaussianToy {
        for (double v : new double[] {mu0, sigma0, tau0, mu1, sigma1, tau1}) {
            if (!Double.isFinite(v)) {
                throw new UserException("Gaussian toy parameters must be finite");
            }
        }
        if (!(sigma0 > 0 && sigma1 > 0)) {
            throw new UserException("Gaussian toy needs σ0, σ1 > 0");
        }
        if (!(tau0 >= 0 && tau0 < 1 && tau1 >= 0 && tau1 < 1)) {
            throw new UserException("Gaussian toy needs 0 ≤ τ < 1");
        }
        if (power < 1 || power > MAX_POWER) {
            throw new UserException("Gaussian toy kernel power must be an integer from 1 to " + MAX_POWER
                    + ", got " + power);
        }
        double largest = Math.max(Math.abs(mu0), Math.abs(mu1));
        if (largest > MAX_SCALE || sigma0 > MAX_SCALE || sigma1 > MAX_SCALE || Math.min(sigma0, sigma1) < 1e-30) {
            throw new UserException("Gaussian toy means and standard deviations must lie within [1e-30, "
                    + MAX_SCALE + "] in magnitude (states are float32), got μ0 = " + mu0 + ", σ0 = " + sigma0 + ", μ1 = "
                    + mu1 + ", σ1 = " + sigma1);
        }
        double sigma = Math.min(sigma0, sigma1);
        double scale = Math.max(largest, Math.max(sigma0, sigma1));
        if (sigma < scale * RESOLUTION) {
            throw new UserException("Gaussian toy σ = " + sigma + " is below 2^-10·max(|μ0|, |μ1|, σ0, σ1) = "
                    + scale * RESOLUTION + ": float32 states at the means or the wider Gaussian's scale would resolve fewer "
                    + "than 2^13 steps per standard deviation of the narrower one, and the log densities and work would be "
                    + "rounding noise (σ0/σ1 and σ1/σ0 at most 1024)");
        }
    }

    /** Applications of the kernel per step beyond which τ^power is 0 or 1 to float64 for any useful τ. */
    public static final int MAX_POWER = 1000;
    /** Largest |μ| and σ: states μ ± 40σ stay far inside float32's range (3.4e38). */
    public static final double MAX_SCALE = 1e30;
    /**
     * σ must be at least this fraction of the largest |μ| and of the other σ: float32 spaces values near v by
     * |v|·2^-23, and 2^-10 keeps 2^13 of those steps in one standard deviation. With σ0/σ1 = 1e29 the base's
     * states sit 1e29 narrow standard deviations out and AIS printed -7.4e51 ± 1.0 for an exact 0.92.
     */
    public static final double RESOLUTION = 1.0 / 1024;

    /**
     * Habeck's example: from N(20, 10²) to N(0, 1), kernels with τ = 0.9 at the start and 0.995 at the
     * target, applied five times per step (the bridge of his {@code scripts/gaussian.py}).
     */
    public static GaussianToy habeck() {
        return new GaussianToy(20, 10, 0.9, 0, 1, 0.995, 5);
    }

    public double precision(double beta) {
        return (1 - beta) / (sigma0 * sigma0) + beta / (sigma1 * sigma1);
    }

    public double mean(double beta) {
        return ((1 - beta) * mu0 / (sigma0 * sigma0) + beta * mu1 / (sigma1 * sigma1)) / precision(beta);
    }

    public double sigma(double beta) {
        return 1 / Math.sqrt(precision(beta));
    }

    public double tau(double beta) {
        return Math.pow((1 - beta) * tau0 + beta * tau1, power);
    }

    public double logDensity(double beta, double x) {
        double d0 = x - mu0;
        double d1 = x - mu1;
        return -(1 - beta) * d0 * d0 / (2 * sigma0 * sigma0) - beta * d1 * d1 / (2 * sigma1 * sigma1);
    }

    /** {@code d/dβ log f_β(x) = (x - μ0)²/(2σ0²) - (x - μ1)²/(2σ1²)}, the same at every β. */
    public double slope(double x) {
        double d0 = x - mu0;
        double d1 = x - mu1;
        return d0 * d0 / (2 * sigma0 * sigma0) - d1 * d1 / (2 * sigma1 * sigma1);
    }

    @Override
    public String description() {
        return "Gaussian toy N(" + mu0 + ", " + sigma0 + "²) → N(" + mu1 + ", " + sigma1 + "²), τ " + tau0 + " → " + tau1;
    }

    @Override
    public int dimension() {
        return 1;
    }

    /**
     * The toy's kernels move every chain at one temperature: the annealing methods and the SMC sampler run
     * on it, tempered sampling (chains at different temperatures) does not.
     */
    @Override
    public boolean supportsTempering() {
        return false;
    }

    /** Draws N(μ1, σ1²) with Box-Muller on Philox stream {@code GAUSSIAN}. */
    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        float[] x = new float[count];
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            Philox.block(seed, 1, r, 0, StreamTag.GAUSSIAN, words);
            double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
            double angle = 2 * Math.PI * Philox.toUniformDouble(words[2], words[3]);
            x[r] = (float) (mu1 + sigma1 * radius * Math.cos(angle));
        }
        return Optional.of(x);
    }

    /** {@code log Z_0 = log(√(2π) σ0)}. */
    @Override
    public double logZ0() {
        return 0.5 * Math.log(2 * Math.PI) + Math.log(sigma0);
    }

    /** {@code log Z_1 = log(√(2π) σ1)}, the exact answer. */
    public double logZ1() {
        return 0.5 * Math.log(2 * Math.PI) + Math.log(sigma1);
    }

    /**
     * The marginals of annealed chains along {@code betas} against the bridge (Habeck Fig. 1B), in closed form: a
     * Gaussian stays Gaussian under the kernel, {@code m ← τ m + (1-τ) μ_β}, {@code s² ← τ² s² + (1-τ²) σ_β²}, and
     * {@code transitions} applications of it are one with {@code τ^transitions}. Forward runs start from p_0, reverse
     * runs from p_1 (their exact start); step k weights at β_k, then moves the chains at β_k, except the last step, which
     * moves none (as {@code AnnealedImportanceSampling} does), so its states are the previous step's.
     */
    public List<AnnealedMarginal> annealedMarginals(double[] betas, boolean forward, int transitions) {
        int k = betas.length - 1;
        double start = forward ? 0 : 1;
        double m = mean(start);
        double v = sigma(start) * sigma(start);
        List<AnnealedMarginal> out = new ArrayList<>(k + 1);
        out.add(marginal(0, start, m, v));
        for (int i = 1; i <= k; i++) {
            double beta = forward ? betas[i] : betas[k - i];
            if (i < k) {
                double t = Math.pow(tau(beta), transitions);
                double s = sigma(beta);
                m = t * m + (1 - t) * mean(beta);
                v = t * t * v + (1 - t * t) * s * s;
            }
            out.add(marginal(i, beta, m, v));
        }
        return out;
    }

    private AnnealedMarginal marginal(int step, double beta, double m, double v) {
        double s = sigma(beta);
        double dm = m - mean(beta);
        double divergence = 0.5 * ((v + dm * dm) / (s * s) - 1 - Math.log(v / (s * s)));
        double d0 = m - mu0;
        double d1 = m - mu1;
        // -slope's mean under N(m, v): E(x - a)² = v + (m - a)²
        double energy = (v + d1 * d1) / (2 * sigma1 * sigma1) - (v + d0 * d0) / (2 * sigma0 * sigma0);
        return new AnnealedMarginal(step, beta, m, Math.sqrt(v), mean(beta), s, divergence, energy);
    }

    /** {@code KL(p_a ‖ p_b)} between two bridge distributions. */
    public double divergence(double a, double b) {
        double sa = sigma(a);
        double sb = sigma(b);
        double dm = mean(a) - mean(b);
        return 0.5 * ((sa * sa + dm * dm) / (sb * sb) - 1 + 2 * Math.log(sb / sa));
    }

    /** Geometric between the two Gaussians. */
    @Override
    public boolean linearPath() {
        return true;
    }
}
