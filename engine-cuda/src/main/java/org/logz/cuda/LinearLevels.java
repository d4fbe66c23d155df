package org.logz.cuda;

import java.util.function.LongConsumer;

import org.logz.backend.ParticleVector;

/**
 * The levels of a path linear in β, {@code log f_β(x) = β E(x)} (the Ising and Potts tori): E once per chain into a
 * device vector grown to the largest batch seen, then {@code logF = β_k E}, {@code slope = E} by tempering.cu's
 * linear-level kernel.
 */
final class LinearLevels implements AutoCloseable {
    private final CudaBackend backend;
    private CudaVector energies;

    LinearLevels(CudaBackend backend) {
        this.backend = backend;
    }

    /** {@code energy} writes E of the {@code count} chains to the device address it is given. */
    void levels(int count, LongConsumer energy, ParticleVector levelBetas, int levels, ParticleVector logF,
                ParticleVector slope) {
        if (energies == null || energies.length() < count) {
            close();
            energies = new CudaVector(backend, count);
        }
        energy.accept(energies.address());
        backend.temperingKernels.linearLevels(energies.address(), count, backend.own(levelBetas).address(), levels,
                backend.own(logF).address(), backend.own(slope).address());
    }

    @Override
    public void close() {
        if (energies != null) {
            energies.close();
            energies = null;
        }
    }
}
