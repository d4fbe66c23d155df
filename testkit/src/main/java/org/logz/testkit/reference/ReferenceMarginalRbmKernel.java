package org.logz.testkit.reference;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.Rbm;
import org.logz.model.rbm.MarginalRbm;
import org.logz.numeric.LogSpace;
import org.logz.random.StreamTag;

/**
 * The marginal RBM path (Habeck 2017, §6.3) from its formula: {@code log f_β(h) = β·(−F(h))} with
 * {@code −F(h) = bᵀh + Σ_i softplus(a_i + Σ_j W_ij h_j)}, recomputed afresh for every state a flip proposes (O(N·H)
 * per flip, where the backends keep the pre-activations). A transition is one Metropolis sweep: units 0 .. H−1 (H−1 .. 0
 * when annealing towards smaller β), unit j flipped when {@code log u < β·(−F(h') + F(h))}, u word j mod 4 of Philox
 * block {@code (j/4, chain, step, MODEL)}; base draws are fair coins from block {@code (BASE_BLOCK + j/4, ...)}.
 */
final class ReferenceMarginalRbmKernel implements TemperedKernel {
    private final ReferenceBackend backend;
    private final Rbm rbm;
    private final float[] a;
    private final float[] b;
    private final int hidden;
    private boolean closed;

    ReferenceMarginalRbmKernel(ReferenceBackend backend, MarginalRbm model) {
        this.backend = backend;
        this.rbm = model.rbm();
        this.a = rbm.visibleBias();
        this.b = rbm.hiddenBias();
        this.hidden = rbm.hidden();
    }

    @Override
    public int dimension() {
        return hidden;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        float[] h = states(x);
        for (int p = 0; p < count; p++) {
            for (int j = 0; j < hidden; j++) {
                double u = ReferenceRbmKernel.uniform(seed, 4 * MarginalRbm.BASE_BLOCK + j, firstChain + p, step,
                        StreamTag.MODEL);
                h[p * hidden + j] = u < 0.5 ? 1f : 0f;
            }
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] h = states(x);
        double[] values = backend.values(out);
        for (int p = 0; p < count; p++) {
            values[p] = beta * negativeFreeEnergy(h, p * hidden);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] h = states(x);
        double[] weights = backend.values(logW);
        for (int p = 0; p < count; p++) {
            weights[p] += (to - from) * negativeFreeEnergy(h, p * hidden);
            for (int t = 0; t < transitions; t++) {
                sweep(h, p, firstChain + p, to, to < from, seed, step + t);
            }
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        float[] h = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle pp ? backend.values(pp.betas()) : null;
        for (int p = 0; p < count; p++) {
            double beta = perParticle != null ? perParticle[p] : ((Betas.Uniform) betas).beta();
            for (int t = 0; t < transitions; t++) {
                sweep(h, p, firstChain + p, beta, false, seed, step + t);
            }
        }
    }

    /** Linear in β: {@code logF = β_k·(−F)}, slope {@code −F}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] h = states(x);
        double[] betas = backend.values(levelBetas);
        for (int p = 0; p < count; p++) {
            double negF = negativeFreeEnergy(h, p * hidden);
            for (int k = 0; k < levels; k++) {
                backend.values(logF)[p * levels + k] = betas[k] * negF;
                backend.values(slope)[p * levels + k] = negF;
            }
        }
    }

    private void sweep(float[] h, int p, int chain, double beta, boolean reversed, long seed, int step) {
        int offset = p * hidden;
        for (int q = 0; q < hidden; q++) {
            int j = reversed ? hidden - 1 - q : q;
            double before = negativeFreeEnergy(h, offset);
            float old = h[offset + j];
            h[offset + j] = 1f - old;
            double gain = negativeFreeEnergy(h, offset) - before;
            if (!(Math.log(ReferenceRbmKernel.uniform(seed, j, chain, step, StreamTag.MODEL)) < beta * gain)) {
                h[offset + j] = old;
            }
        }
    }

    private double negativeFreeEnergy(float[] h, int offset) {
        double f = 0;
        for (int j = 0; j < hidden; j++) {
            f += b[j] * (double) h[offset + j];
        }
        for (int i = 0; i < rbm.visible(); i++) {
            double g = a[i];
            for (int j = 0; j < hidden; j++) {
                g += rbm.weight(i, j) * (double) h[offset + j];
            }
            f += LogSpace.softplus(g);
        }
        return f;
    }

    private float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("marginal RBM kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
