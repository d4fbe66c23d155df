package org.logz.backend;

/**
 * Optional capability: ARM-anticipate's split ({@link ParticleBackend#split}) on the device.
 * Arguments arrive checked. A backend without it runs {@link org.logz.resample.Resampling#split} on
 * downloaded weights, with the same result.
 */
public interface Splitting {
    /** As {@link ParticleBackend#split}. Modifies {@code indices} and {@code carriedOut}. */
    int split(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
              ParticleVector carriedOut);
}
