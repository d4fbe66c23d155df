package org.logz.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.logz.base.UserException;

/** Finds backends by name through {@link ServiceLoader}. */
public final class Backends {
    private Backends() {
    }

    /** Every provider on the class path, available or not. */
    public static List<BackendProvider> providers() {
        List<BackendProvider> all = new ArrayList<>();
        ServiceLoader.load(BackendProvider.class).forEach(all::add);
        return all;
    }

    /** The provider with this name. */
    public static BackendProvider provider(String name) {
        List<String> known = new ArrayList<>();
        for (BackendProvider p : providers()) {
            if (p.name().equals(name)) {
                return p;
            }
            known.add(p.name());
        }
        throw new UserException("unknown backend '" + name + "'; installed: " + String.join(", ", known));
    }

    /** The backend a task runs on when none is named: {@code cuda} where a GPU answers, else {@code cpu}. */
    public static String best() {
        return providers().stream().anyMatch(p -> p.name().equals("cuda") && p.isAvailable()) ? "cuda" : "cpu";
    }

    /** More host threads than this only adds scheduling (the work splits into row tiles). */
    public static final int MAX_THREADS = 1024;

    /**
     * Creates the named backend with {@code threads} host threads (null: all cores), refusing a count outside 1 to
     * {@link #MAX_THREADS} with the command line's message.
     */
    public static ParticleBackend open(String name, Integer threads) {
        if (threads != null && (threads < 1 || threads > MAX_THREADS)) {
            throw new UserException("--threads must be between 1 and " + MAX_THREADS + ", got " + threads);
        }
        return create(name, threads == null ? Runtime.getRuntime().availableProcessors() : threads);
    }

    /**
     * Creates the named backend.
     *
     * @throws IllegalArgumentException when the name is unknown
     * @throws BackendUnavailableException when the backend cannot run here, with the reason
     */
    public static ParticleBackend create(String name, int threads) {
        if (threads < 1) {
            throw new UserException("threads must be at least 1, got " + threads);
        }
        BackendProvider provider = provider(name);
        if (!provider.isAvailable()) {
            throw new BackendUnavailableException(name, provider.unavailableReason());
        }
        return provider.create(threads);
    }
}
