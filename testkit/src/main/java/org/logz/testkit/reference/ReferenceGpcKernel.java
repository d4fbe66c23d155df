package org.logz.testkit.reference;

import org.logz.backend.ParticleVector;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.model.gpc.GpcSteps;
import org.logz.numeric.Cholesky;
import org.logz.numeric.Normal;
import org.logz.path.GpcSequence;

/**
 * The GP classifier's sequential kernel in plain scalar Java (ARM Appendix A). Unlike the backends,
 * which grow the precisions by the block inverse, it inverts {@code Σ_[n]} afresh from its Cholesky
 * factor on every call, so the contracts also check the growth. Same Philox layout and scalar steps
 * ({@link GpcSteps}).
 */
final class ReferenceGpcKernel implements SequentialKernel {
    private final ReferenceBackend backend;
    private final GpcSequence model;
    private final double[] sigma;
    private final int n;
    private boolean closed;

    ReferenceGpcKernel(ReferenceBackend backend, GpcSequence model) {
        this.backend = backend;
        this.model = model;
        this.sigma = model.permuted().zCovariance();
        this.n = model.length();
    }

    @Override
    public int length() {
        return n;
    }

    @Override
    public int[] stateColumns() {
        return new int[] {n};
    }

    @Override
    public void reset(ParticleState state, int first, int count) {
        java.util.Arrays.fill(values(state), first * n, (first + count) * n, 0f);
    }

    @Override
    public void refresh(ParticleState state, int first, int count) {
        values(state);
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int transitions, long seed, int step) {
        float[] z = values(state);
        double[] s = inverse(active);
        double[] u = new double[2];
        int[] words = new int[4];
        for (int t = 0; t < transitions; t++) {
            int[] order = GpcSteps.sweepOrder(active, seed, step + t);
            for (int r = first; r < first + count; r++) {
                for (int k = 0; k < active; k++) {
                    int i = order[k];
                    double dot = 0;
                    for (int j = 0; j < active; j++) {
                        dot += j == i ? 0 : s[i * active + j] * z[r * n + j];
                    }
                    double precision = s[i * active + i];
                    GpcSteps.sliceUniforms(seed, k, r, step + t, words, u);
                    z[r * n + i] = (float) GpcSteps.slice(z[r * n + i], -dot / precision, precision, model.label(i), u[0],
                            u[1]);
                }
            }
        }
    }

    @Override
    public void smooth(ParticleState state, int variable, int first, int count, ParticleVector logW) {
        float[] z = values(state);
        double[] w = backend.values(logW);
        double[] s = inverse(variable + 1);
        for (int r = first; r < first + count; r++) {
            double[] ms = conditional(s, variable, z, r);
            w[r] += Normal.logCdf(model.label(variable) * ms[0] / ms[1]);
        }
    }

    @Override
    public void augment(ParticleState state, int variable, int first, int count, long seed, int step) {
        float[] z = values(state);
        double[] s = inverse(variable + 1);
        for (int r = first; r < first + count; r++) {
            double[] ms = conditional(s, variable, z, r);
            z[r * n + variable] = (float) GpcSteps.truncatedNormal(ms[0], ms[1], model.label(variable),
                    GpcSteps.augmentUniform(seed, r, step));
        }
    }

    /** The mean and standard deviation of z_v given z_[v] (A.3). */
    private double[] conditional(double[] s, int v, float[] z, int r) {
        int m = v + 1;
        double dot = 0;
        for (int i = 0; i < v; i++) {
            dot += s[i * m + v] * z[r * n + i];
        }
        double svv = s[v * m + v];
        return new double[] {-dot / svv, 1 / Math.sqrt(svv)};
    }

    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        float[] z = values(state);
        double[] w = backend.values(out);
        for (int r = 0; r < count; r++) {
            int entered = n;
            while (entered > 0 && z[r * n + entered - 1] == 0f) {
                entered--;
            }
            double[] block = block(entered);
            double[] l = Cholesky.lower(block, entered);
            double logDet = 0;
            for (int i = 0; i < entered; i++) {
                logDet += 2 * Math.log(l[i * entered + i]);
            }
            double[] s = Cholesky.inverse(l, entered);
            double quad = 0;
            boolean inside = true;
            for (int i = 0; i < entered; i++) {
                inside &= model.label(i) * z[r * n + i] > 0;
                for (int j = 0; j < entered; j++) {
                    quad += z[r * n + i] * s[i * entered + j] * z[r * n + j];
                }
            }
            w[r] = inside ? -0.5 * (quad + entered * Math.log(2 * Math.PI) + logDet) : Double.NEGATIVE_INFINITY;
        }
    }

    private double[] block(int m) {
        double[] b = new double[m * m];
        for (int i = 0; i < m; i++) {
            System.arraycopy(sigma, i * n, b, i * m, m);
        }
        return b;
    }

    /** {@code Σ_[m]⁻¹} afresh from its Cholesky factor. */
    private double[] inverse(int m) {
        return Cholesky.inverse(Cholesky.lower(block(m), m), m);
    }

    private float[] values(ParticleState state) {
        if (closed) {
            throw new IllegalStateException("GP classification kernel is closed");
        }
        return backend.values(state.variables());
    }

    @Override
    public void close() {
        closed = true;
    }
}
