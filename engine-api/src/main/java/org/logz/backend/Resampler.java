package org.logz.backend;

import org.logz.resample.Resampling;

/**
 * One resampling scheme on one backend. Every scheme has this signature (DESIGN §6): from the log
 * weights of particles {@code [0, count)}, draw {@code offspring} ancestor indices into
 * {@code out[0, offspring)}, with uniforms from Philox stream {@code RESAMPLE} at {@code step}, laid
 * out as in {@link Resampling}, so every backend picks the same ancestors for the same weights.
 */
@FunctionalInterface
public interface Resampler {
    /**
     * Modifies {@code out} only.
     *
     * @throws IllegalArgumentException when a log weight is NaN or +∞, or every weight is zero
     */
    void ancestors(ParticleVector logW, int count, int offspring, long seed, int step, IndexVector out);
}
