package org.logz.cli;

import org.logz.UserException;
import org.logz.backend.Backends;
import org.logz.backend.ParticleBackend;

import picocli.CommandLine.Option;

/** {@code --backend} and {@code --threads}, shared by the commands that run estimators. */
final class BackendOptions {
    /** More host threads than this only adds scheduling (the work splits into row tiles). */
    static final int MAX_THREADS = 1024;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "cpu",
            description = "Backend: cpu (default), or another installed one (see 'logz backends').")
    String backend;

    @Option(names = "--threads", paramLabel = "T",
            description = "Host threads for the backend (default: all cores). Results do not depend on it.")
    Integer threads;

    ParticleBackend open() {
        if (threads != null && (threads < 1 || threads > MAX_THREADS)) {
            throw new UserException("--threads must be between 1 and " + MAX_THREADS + ", got " + threads);
        }
        int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        return Backends.create(backend, t);
    }
}
