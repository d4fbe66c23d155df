package org.logz.base;

/**
 * An error in what the user asked for: an impossible option, a malformed or unreadable file, a model
 * no backend can run. The message is one line that says what to change; the command line exits with
 * code 2 and no stack trace. Anything else that escapes a run is an internal error (exit 1).
 */
public class UserException extends IllegalArgumentException {
    public UserException(String message) {
        super(message);
    }

    public UserException(String message, Throwable cause) {
        super(message, cause);
    }
}
