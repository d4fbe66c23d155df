package org.logz.backend;

/**
 * A backend-resident vector of int32 indices (ancestors of resampling, copy lists, lineage ids).
 * Closing frees the memory; closing twice is harmless.
 */
public interface IndexVector extends AutoCloseable {
    int length();

    @Override
    void close();
}
