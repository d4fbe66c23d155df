package org.logz.cli;

import org.logz.backend.Backends;
import org.logz.backend.ParticleBackend;

import picocli.CommandLine.Option;

/** {@code --backend} and {@code --threads}, shared by the commands that run estimators. */
public final class BackendOptions {
    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "cpu",
            description = "Backend: cpu (default), or another installed one (see 'logz backends').")
    String backend;

    @Option(names = "--threads", paramLabel = "T",
            description = "Host threads for the backend (default: all cores). Results do not depend on it.")
    Integer threads;

    /** The threads asked for, or null for every core. */
    public Integer threads() {
        return threads;
    }

    public ParticleBackend open() {
        return Backends.open(backend, threads);
    }
}
