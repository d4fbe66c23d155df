package org.logz.testkit.reference;

import org.logz.model.gpc.TemperedGpc;
import org.logz.model.gpc.WhitenedGpc;
import org.logz.numeric.Normal;

/**
 * GP classification in whitened coordinates (DESIGN §5, "GPC by HMC"), written from the formulas rather than calling
 * {@link WhitenedGpc}: {@code x = μ + G ξ} summed row by row, {@code ℓ(x) = Σ_i [log Φ(y_i x_i) + a_i x_i² + b_i x_i] + c},
 * {@code log f_β(ξ) = −½|ξ|² − (r/2) log 2π + β ℓ(x)} and its gradient {@code −ξ + β Gᵀ ∇ℓ}, with
 * {@code ∂ℓ/∂x_i = y_i exp(log φ(y_i x_i) − log Φ(y_i x_i)) + 2 a_i x_i + b_i}.
 */
final class ReferenceGpcDensity implements ReferenceHmcKernel.Density {
    private final TemperedGpc gpc;
    private final double[] g;
    private final double[] mu;
    private final double[] a;
    private final double[] b;
    private final int n;
    private final int r;

    ReferenceGpcDensity(WhitenedGpc model) {
        this.gpc = model.tempered();
        this.g = gpc.factor().columns();
        this.mu = gpc.mean();
        this.a = gpc.quadratic();
        this.b = gpc.linear();
        this.n = gpc.size();
        this.r = gpc.rank();
    }

    private double[] latent(double[] xi) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < r; j++) {
                s += g[j * n + i] * xi[j];
            }
            x[i] = mu[i] + s;
        }
        return x;
    }

    private double ell(double[] x) {
        double s = gpc.constant();
        for (int i = 0; i < n; i++) {
            s += Normal.logCdf(gpc.label(i) * x[i]) + a[i] * x[i] * x[i] + b[i] * x[i];
        }
        return s;
    }

    @Override
    public double logF(double beta, double[] xi, double[] grad) {
        double[] x = latent(xi);
        if (grad != null) {
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                double z = gpc.label(i) * x[i];
                d[i] = gpc.label(i) * Math.exp(Normal.logPdf(z) - Normal.logCdf(z)) + 2 * a[i] * x[i] + b[i];
            }
            for (int j = 0; j < r; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += g[j * n + i] * d[i];
                }
                grad[j] = -xi[j] + beta * s;
            }
        }
        double q = 0;
        for (double v : xi) {
            q += v * v;
        }
        return -0.5 * q - 0.5 * r * Math.log(2 * Math.PI) + beta * ell(x);
    }

    @Override
    public double slope(double[] xi) {
        return ell(latent(xi));
    }

    @Override
    public double baseScale() {
        return 1;
    }
}
