package org.logz.cuda;

import org.logz.backend.BackendProvider;
import org.logz.backend.ParticleBackend;

/**
 * ServiceLoader entry of the {@code cuda-emulated} backend: the CUDA backend's kernels in the host
 * emulation, in strict mode, with SGEMM on the host. Slow; for tests and for seeing the GPU code path
 * run on any machine.
 */
public final class EmulatedCudaBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cuda-emulated";
    }

    @Override
    public boolean isAvailable() {
        return unavailableReason().isEmpty();
    }

    @Override
    public String unavailableReason() {
        return EmulatorNative.loadError();
    }

    /** @param threads unused: the emulator sizes its own pool (LOGZ_EMULATOR_THREADS) */
    @Override
    public ParticleBackend create(int threads) {
        return emulated(CudaDevice.GemmPath.BLAS);
    }

    /** An emulated backend whose products take the given path. */
    static CudaBackend emulated(CudaDevice.GemmPath path) {
        return new CudaBackend("cuda-emulated", new EmulatedDevice(path, true));
    }
}
