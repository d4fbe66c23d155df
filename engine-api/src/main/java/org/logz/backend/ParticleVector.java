package org.logz.backend;

/**
 * A backend-resident float64 vector with one value per particle (log weights, inverse
 * temperatures, log densities). Closing frees the memory; closing twice is harmless.
 */
public interface ParticleVector extends AutoCloseable {
    int length();

    @Override
    void close();
}
