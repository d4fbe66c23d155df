package org.logz.cuda;

import org.logz.backend.BackendProvider;
import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;

/**
 * ServiceLoader entry of the {@code cuda-emulated} backend: the CUDA backend's kernels in the host
 * emulation, in strict mode, with SGEMM on the host (cuBLAS's place), or with the system property
 * {@code logz.emulator.gemm=tiled} through logz's tiled GEMM kernels (a GPU without cuBLAS). Slow; for tests, for
 * seeing the GPU code path run on any machine, and for kernel profiles.
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
        String gemm = System.getProperty("logz.emulator.gemm", "blas");
        return switch (gemm) {
            case "blas" -> emulated(CudaDevice.GemmPath.BLAS);
            case "tiled" -> emulated(CudaDevice.GemmPath.TILED);
            default -> throw new UserException("logz.emulator.gemm=" + gemm + ": expected blas or tiled");
        };
    }

    /** An emulated backend whose products take the given path. */
    static CudaBackend emulated(CudaDevice.GemmPath path) {
        return new CudaBackend("cuda-emulated", new EmulatedDevice(path, true));
    }
}
