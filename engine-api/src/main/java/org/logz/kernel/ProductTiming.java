package org.logz.kernel;

import java.util.OptionalDouble;

import org.logz.backend.ParticleMatrix;
import org.logz.model.Rbm;

/**
 * Optional backend capability ({@link org.logz.backend.ParticleBackend#capability}): the time of an RBM Gibbs sweep's
 * two matrix products alone (U = XW, then V = HWᵀ), the yardstick of the sweep benchmark. It lives beside the kernels,
 * not in the backend package, because it names a model and the backend package names none.
 */
public interface ProductTiming {
    /**
     * Seconds that {@code sweeps} rounds of the two products take for the first {@code chains} states of {@code x}:
     * as the backend's kernels lay them out, or with {@code wholeShape} one product per thread over contiguous rows. A
     * device whose products cover all rows at once times the same products either way.
     */
    double seconds(Rbm rbm, ParticleMatrix x, int chains, int sweeps, boolean wholeShape);

    /**
     * Seconds that {@code sweeps} rounds of the same two whole-shape products take on dense inputs (every unit on), so
     * that a backend whose kernels skip zeros is timed against its own dense product too; empty where the backend's
     * products do not depend on the inputs' values.
     */
    default OptionalDouble denseSeconds(Rbm rbm, int chains, int sweeps) {
        return OptionalDouble.empty();
    }

    /**
     * Whether the products run on the host's cores, where a host BLAS is the floor to beat; a device's own products
     * are its floor.
     */
    boolean onHost();
}
