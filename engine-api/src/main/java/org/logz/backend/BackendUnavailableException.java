package org.logz.backend;

/** A backend that exists but cannot run on this machine; the message says why. */
public class BackendUnavailableException extends RuntimeException {
    private final String backend;

    public BackendUnavailableException(String backend, String reason) {
        super("backend '" + backend + "' is not available: " + reason);
        this.backend = backend;
    }

    public String backend() {
        return backend;
    }
}
