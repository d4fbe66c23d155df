package org.logz.memory;

import org.logz.base.UserException;

/**
 * A run refused before it allocated anything, because what it needs exceeds what the JVM or the
 * device has: "needs X GiB, the JVM has Y GiB". A user error (the sizes were asked for), so the
 * command line exits with code 2.
 */
public final class InsufficientMemoryException extends UserException {
    public InsufficientMemoryException(String what, long needed, long available, String where, String advice) {
        super(what + " needs " + HostMemory.format(needed) + ", " + where + " has " + HostMemory.format(available)
                + (advice == null || advice.isEmpty() ? "" : "; " + advice + " or ask for less"));
    }
}
