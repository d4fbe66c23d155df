package org.logz.kernel;

import org.logz.base.UserException;

/** No kernel for this model on this backend; the message names both and every provider's reason. */
public final class KernelUnavailableException extends UserException {
    public KernelUnavailableException(String message) {
        super(message);
    }
}
