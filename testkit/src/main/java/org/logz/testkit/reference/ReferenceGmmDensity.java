package org.logz.testkit.reference;

import org.logz.model.gmm.GaussianMixture;

/**
 * The Gaussian mixture's formulas (DESIGN §5, "Gaussian mixture"), written again rather than calling the model's code:
 * {@code log f_β(x) = −(1−β)|x|²/(2s0²) + β log Σ_c w_c exp(−|x−μ_c|²/(2s_c²))} with μ_1 = −μ_2 = m·(1, ..., 1) and the
 * gradient {@code −(1−β)x/s0² − β Σ_c r_c (x − μ_c)/s_c²}.
 */
record ReferenceGmmDensity(GaussianMixture model) implements ReferenceHmcKernel.Density {
    /** The two components' log terms {@code log w_c − |x − μ_c|²/(2 s_c²)}. */
    private double[] terms(double[] x) {
        double m = model.meanCoordinate();
        double[] out = new double[2];
        for (int c = 0; c < 2; c++) {
            double mu = c == 0 ? m : -m;
            double s = c == 0 ? model.sigma1() : model.sigma2();
            double q = 0;
            for (int i = 0; i < x.length; i++) {
                q += (x[i] - mu) * (x[i] - mu);
            }
            out[c] = Math.log(c == 0 ? model.weight() : 1 - model.weight()) - q / (2 * s * s);
        }
        return out;
    }

    private static double lse(double a, double b) {
        double m = Math.max(a, b);
        return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
    }

    private double baseTerm(double[] x) {
        double q = 0;
        for (double v : x) {
            q += v * v;
        }
        return -q / (2 * model.sigma0() * model.sigma0());
    }

    @Override
    public double logF(double beta, double[] x, double[] grad) {
        double[] t = terms(x);
        double target = lse(t[0], t[1]);
        if (grad != null) {
            double m = model.meanCoordinate();
            double r1 = Math.exp(t[0] - target);
            double r2 = Math.exp(t[1] - target);
            double s0 = model.sigma0() * model.sigma0();
            double s1 = model.sigma1() * model.sigma1();
            double s2 = model.sigma2() * model.sigma2();
            for (int i = 0; i < x.length; i++) {
                grad[i] = -(1 - beta) * x[i] / s0 - beta * (r1 * (x[i] - m) / s1 + r2 * (x[i] + m) / s2);
            }
        }
        return (1 - beta) * baseTerm(x) + beta * target;
    }

    @Override
    public double slope(double[] x) {
        double[] t = terms(x);
        return lse(t[0], t[1]) - baseTerm(x);
    }

    @Override
    public double baseScale() {
        return model.sigma0();
    }
}
