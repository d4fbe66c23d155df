package org.logz.io;

import org.logz.base.UserException;

/**
 * A model or data file that cannot be used: missing array, wrong shape or dtype, non-finite
 * values, a truncated or corrupt archive. The message names the file and the problem; it is meant
 * to be shown to the user as is.
 */
public class ModelFormatException extends UserException {
    public ModelFormatException(String message) {
        super(message);
    }

    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
