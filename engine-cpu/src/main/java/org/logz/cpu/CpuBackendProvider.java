package org.logz.cpu;

import org.logz.backend.BackendProvider;
import org.logz.backend.ParticleBackend;

/**
 * ServiceLoader entry for the {@code cpu} backend: available wherever the JDK runs, with the native kernels where a
 * compiler built them for this platform and the Java path (same bits) elsewhere ({@link #detail}).
 */
public final class CpuBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public String unavailableReason() {
        return "";
    }

    /** Which RBM arithmetic runs: the native kernels of an instruction set, or the Java path and why. */
    @Override
    public String detail() {
        return CpuNative.arithmetic();
    }

    @Override
    public ParticleBackend create(int threads) {
        return CpuBackend.create(threads);
    }
}
