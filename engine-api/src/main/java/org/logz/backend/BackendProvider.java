package org.logz.backend;

/**
 * Discovered through {@link java.util.ServiceLoader}: one provider per backend module, listed in
 * {@code META-INF/services/org.logz.backend.BackendProvider}.
 */
public interface BackendProvider {
    /** The backend's command-line name. */
    String name();

    /**
     * Whether the backend can run on this machine. Probed once and cached by implementations;
     * must not throw.
     */
    boolean isAvailable();

    /** Why the backend is unavailable, in one sentence; empty when it is available. */
    String unavailableReason();

    /** How an available backend runs here (its kernels' path, its device), for {@code logz backends}; may be empty. */
    default String detail() {
        return "";
    }

    /**
     * Creates a backend.
     *
     * @param threads host threads the backend may use for its own work (≥ 1); results do not
     *                depend on it
     */
    ParticleBackend create(int threads);
}
