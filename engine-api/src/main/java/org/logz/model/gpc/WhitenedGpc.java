package org.logz.model.gpc;

import org.logz.base.UserException;
import org.logz.kernel.HmcModel;
import org.logz.kernel.HmcSettings;
import org.logz.numeric.Normal;
import org.logz.random.NormalStream;
import org.logz.random.StreamTag;

/**
 * GP classification's tempered path ({@link TemperedGpc}) in whitened coordinates, for Hamiltonian Monte Carlo (ARM
 * Fig. 2's baselines; DESIGN §5, "GPC by HMC"): a chain is ξ ∈ R^rank with {@code x = μ + G ξ}, so the base
 * {@code N(μ, G Gᵀ)} becomes {@code N(0, I)} and
 * <pre>  log f_β(ξ) = −½|ξ|² − (rank/2) log 2π + β ℓ(μ + G ξ),   ∇ log f_β = −ξ + β Gᵀ ∇ℓ(x),
 *   ∂ℓ/∂x_i = y_i φ(y_i x_i)/Φ(y_i x_i) + 2 a_i x_i + b_i.</pre>
 * f_0 is the normalized base, so {@code Z_0 = 1} and Z_1 is the evidence, as on the ellipse kernel's path. HMC with
 * identity mass on ξ is HMC on x with the constant mass matrix {@code (G Gᵀ)⁻¹}, the base's precision: the paper's
 * RMHMC (Girolami &amp; Calderhead 2011) with the metric fixed at the prior's (or EP's q's) precision. A state costs
 * one product with G (n·rank) per density and one with Gᵀ per gradient.
 */
public final class WhitenedGpc implements HmcModel {
    private static final double LOG_TWO_PI = Math.log(2 * Math.PI);

    private final TemperedGpc gpc;
    private final HmcSettings hmc;
    private final double[] columns;
    private final double[] mean;
    private final int n;
    private final int rank;

    public WhitenedGpc(TemperedGpc gpc, HmcSettings hmc) {
        if (gpc.rank() == 0) {
            throw new UserException(gpc.classification().name() + ": K = 0 leaves HMC no coordinates to move (every "
                    + "chain sits at x = μ); use --kernel ellipse");
        }
        this.gpc = gpc;
        this.hmc = hmc;
        this.columns = gpc.factor().columns();
        this.mean = gpc.mean();
        this.n = gpc.size();
        this.rank = gpc.rank();
    }

    /** ARM Fig. 2's settings: from EP's q l_max = 200 jittered with ε = 0.02; from the prior 10 steps of ε = 0.1. */
    public static HmcSettings paperSettings(TemperedGpc.Start start) {
        return start == TemperedGpc.Start.EP ? new HmcSettings(200, 0.02, false, HmcSettings.DEFAULT_ACCEPTANCE, true)
                : new HmcSettings(10, 0.1, false, HmcSettings.DEFAULT_ACCEPTANCE, false);
    }

    public TemperedGpc tempered() {
        return gpc;
    }

    @Override
    public HmcSettings hmc() {
        return hmc;
    }

    /** {@code x = μ + G ξ}: the columns' contributions added in order from 0, then μ. */
    public double[] latent(double[] xi) {
        double[] x = new double[n];
        for (int j = 0; j < rank; j++) {
            double c = xi[j];
            int offset = j * n;
            for (int i = 0; i < n; i++) {
                x[i] += columns[offset + i] * c;
            }
        }
        for (int i = 0; i < n; i++) {
            x[i] += mean[i];
        }
        return x;
    }

    @Override
    public double logDensity(double beta, double[] xi, double[] grad) {
        double[] x = latent(xi);
        double squares = 0;
        for (int j = 0; j < rank; j++) {
            squares += xi[j] * xi[j];
        }
        double ell = gpc.logLikelihoodRatio(x);
        if (grad != null) {
            double[] q = gpc.quadratic();
            double[] b = gpc.linear();
            for (int i = 0; i < n; i++) {
                int y = gpc.label(i);
                x[i] = y * Normal.pdfOverCdf(y * x[i]) + 2 * q[i] * x[i] + b[i];
            }
            for (int j = 0; j < rank; j++) {
                double s = 0;
                int offset = j * n;
                for (int i = 0; i < n; i++) {
                    s += columns[offset + i] * x[i];
                }
                grad[j] = -xi[j] + beta * s;
            }
        }
        return -0.5 * squares - 0.5 * rank * LOG_TWO_PI + beta * ell;
    }

    /** ℓ(μ + G ξ). */
    @Override
    public double slope(double beta, double[] xi) {
        return gpc.logLikelihoodRatio(latent(xi));
    }

    /** ξ ~ N(0, I): the normals of {@code (particle, step)} on tag BASE. */
    @Override
    public void sampleBase(long seed, int particle, int step, double[] out) {
        NormalStream z = new NormalStream(seed, particle, step, StreamTag.BASE);
        for (int j = 0; j < rank; j++) {
            out[j] = z.at(j);
        }
    }

    @Override
    public String fingerprint() {
        return gpc.fingerprint() + ", whitened HMC " + hmc.spec();
    }

    @Override
    public String description() {
        return gpc.description() + ", " + hmc.describe() + " in whitened coordinates";
    }

    @Override
    public String baseName() {
        return gpc.baseName();
    }

    /** ξ (rank floats) and the leapfrog's momenta, gradients and proposal (4·rank doubles) and x (n doubles). */
    @Override
    public long bytesPerChain() {
        return 4L * rank + 8L * (4L * rank + n);
    }

    @Override
    public int dimension() {
        return rank;
    }

    @Override
    public double logZ0() {
        return 0;
    }

    @Override
    public boolean linearPath() {
        return true;
    }
}
