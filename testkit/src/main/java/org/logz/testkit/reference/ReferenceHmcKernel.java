package org.logz.testkit.reference;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Hmc;
import org.logz.kernel.HmcSettings;
import org.logz.kernel.HmcStepSizes;
import org.logz.kernel.TemperedKernel;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Hamiltonian Monte Carlo on a continuous tempered target, written from DESIGN §5 ("HMC") rather than by calling
 * {@link Hmc}'s code: momenta by Box-Muller on blocks {@code (i/2, particle, step, MODEL)}, the accept and jitter
 * uniforms from block {@code (CONTROL_BLOCK, particle, step, MODEL)}, leapfrog with the end point rounded to float32,
 * and the step sizes of {@link HmcStepSizes} (the host rule every backend shares). The model's density and gradient
 * come from a {@link Density} written from the model's formulas.
 */
final class ReferenceHmcKernel implements TemperedKernel {
    /** A target's formulas: {@code log f_β} with its gradient, the slope in β, and the base N(0, baseScale² I). */
    interface Density {
        /** {@code log f_β(x)}; with {@code grad} non-null its gradient there. */
        double logF(double beta, double[] x, double[] grad);

        /** {@code d/dβ log f_β(x)} (the paths are linear in β). */
        double slope(double[] x);

        /** The base's standard deviation in every coordinate. */
        double baseScale();
    }

    private final ReferenceBackend backend;
    private final HmcSettings settings;
    private final Density density;
    private final HmcStepSizes stepSizes;
    private final int d;
    private boolean closed;

    ReferenceHmcKernel(ReferenceBackend backend, HmcSettings settings, int dimension, Density density) {
        this.backend = backend;
        this.settings = settings;
        this.density = density;
        this.stepSizes = new HmcStepSizes(settings);
        this.d = dimension;
    }

    @Override
    public int dimension() {
        return d;
    }

    private double logF(double beta, double[] x, double[] grad) {
        return density.logF(beta, x, grad);
    }

    private double[] row(float[] v, int p) {
        double[] x = new double[d];
        for (int i = 0; i < d; i++) {
            x[i] = v[p * d + i];
        }
        return x;
    }

    /** Standard normal i of (particle, step) on {@code tag}: Box-Muller on block (i/2, ...), cos for even i, sin for odd. */
    private static double normal(long seed, int i, int particle, int step, int tag) {
        int[] w = new int[4];
        Philox.block(seed, i / 2, particle, step, tag, w);
        double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(w[0], w[1])));
        double angle = 2 * Math.PI * Philox.toUniformDouble(w[2], w[3]);
        return i % 2 == 0 ? radius * Math.cos(angle) : radius * Math.sin(angle);
    }

    private void requireOneBatch(int firstChain) {
        if (firstChain != 0 && settings.adapt()) {
            throw new UnsupportedOperationException("adaptive HMC step sizes follow the whole batch: its chains run as "
                    + "one batch, not from chain " + firstChain);
        }
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        requireOneBatch(firstChain);
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            for (int i = 0; i < d; i++) {
                v[p * d + i] = (float) (density.baseScale() * normal(seed, i, firstChain + p, step, StreamTag.BASE));
            }
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            backend.values(out)[p] = logF(beta, row(v, p), null);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            double[] r = row(v, p);
            backend.values(logW)[p] += logF(to, r, null) - logF(from, r, null);
        }
        transition(x, count, Betas.of(to), transitions, seed, step, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        requireOneBatch(firstChain);
        float[] v = states(x);
        double[] beta = new double[count];
        for (int p = 0; p < count; p++) {
            beta[p] = betas instanceof Betas.PerParticle pp ? backend.values(pp.betas())[p] : ((Betas.Uniform) betas).beta();
        }
        double[] eps = stepSizes.perRow(seed, beta, count);
        int[] accepted = new int[count];
        for (int p = 0; p < count; p++) {
            double[] cur = row(v, p);
            for (int t = 0; t < transitions; t++) {
                if (hmc(cur, beta[p], eps[p], seed, firstChain + p, step + t)) {
                    accepted[p]++;
                }
            }
            for (int i = 0; i < d; i++) {
                v[p * d + i] = (float) cur[i];
            }
        }
        if (transitions > 0) {
            stepSizes.update(seed, beta, eps, accepted, count, transitions);
        }
    }

    /** One HMC transition of {@code x} at β; true when accepted (x then holds the proposal). */
    private boolean hmc(double[] x, double beta, double eps, long seed, int particle, int step) {
        HmcSettings s = settings;
        double[] p = new double[d];
        double h = -logF(beta, x, null);
        for (int i = 0; i < d; i++) {
            p[i] = normal(seed, i, particle, step, StreamTag.MODEL);
            h += 0.5 * p[i] * p[i];
        }
        int[] w = new int[4];
        Philox.block(seed, Hmc.CONTROL_BLOCK, particle, step, StreamTag.MODEL, w);
        double u = Philox.toUniformDouble(w[0], w[1]);
        int steps = s.jitter() ? 1 + Math.min(s.leapfrog() - 1, (int) (Philox.toUniformDouble(w[2], w[3]) * s.leapfrog()))
                : s.leapfrog();
        double[] y = x.clone();
        double[] g = new double[d];
        logF(beta, y, g);
        for (int l = 0; l < steps; l++) {
            for (int i = 0; i < d; i++) {
                p[i] += (l == 0 ? 0.5 : 1.0) * eps * g[i];
            }
            for (int i = 0; i < d; i++) {
                y[i] += eps * p[i];
                if (l == steps - 1) {
                    y[i] = (float) y[i];
                }
            }
            logF(beta, y, g);
        }
        double hNew = -logF(beta, y, g);
        for (int i = 0; i < d; i++) {
            p[i] += 0.5 * eps * g[i];
            hNew += 0.5 * p[i] * p[i];
        }
        if (Double.isFinite(hNew) && Math.log(u) < h - hNew) {
            System.arraycopy(y, 0, x, 0, d);
            return true;
        }
        return false;
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            double[] r = row(v, p);
            double slopeValue = density.slope(r);
            for (int k = 0; k < levels; k++) {
                backend.values(logF)[p * levels + k] = logF(backend.values(levelBetas)[k], r, null);
                backend.values(slope)[p * levels + k] = slopeValue;
            }
        }
    }

    private float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("HMC kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
