package org.logz.backend;

/**
 * A backend-resident matrix of float32 particle states, one particle per row. Opaque to
 * estimators: its values live on the backend's device and are only read through
 * {@link ParticleBackend#download(ParticleMatrix, int)} for diagnostics. Closing frees the memory;
 * closing twice is harmless.
 */
public interface ParticleMatrix extends AutoCloseable {
    /** Capacity in particles. */
    int rows();

    /** Values per particle. */
    int cols();

    /**
     * An {@link IllegalArgumentException} unless each particle has {@code expected} values;
     * {@code what} names them for the message (e.g. "visible units of the RBM").
     */
    default void requireColumns(int expected, String what) {
        if (cols() != expected) {
            throw new IllegalArgumentException("particle matrix has " + cols() + " columns for " + expected + " " + what);
        }
    }

    @Override
    void close();
}
