package org.logz.estimate.tempered;

import java.util.List;

/**
 * The backend buffers of a tempered run, allocated one after another: where one allocation fails (the device is full),
 * those made before it go back, so that a run split into parts, which makes its buffers once per stage, leaks none.
 */
public final class Buffers {
    private Buffers() {
    }

    /** {@code buffer}, remembered in {@code made}. */
    public static <T extends AutoCloseable> T add(List<AutoCloseable> made, T buffer) {
        made.add(buffer);
        return buffer;
    }

    /** Closes every buffer of {@code made} after {@code failure}, adding what their closes throw to it. */
    public static void release(List<AutoCloseable> made, Throwable failure) {
        for (AutoCloseable c : made) {
            try {
                c.close();
            } catch (Exception suppressed) {
                failure.addSuppressed(suppressed);
            }
        }
    }

    /** Closes every buffer of {@code made}, each even where another's close failed; then throws the first failure. */
    public static void closeAll(List<AutoCloseable> made) {
        RuntimeException failed = null;
        for (AutoCloseable c : made) {
            try {
                c.close();
            } catch (Exception e) {
                if (failed == null) {
                    failed = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
