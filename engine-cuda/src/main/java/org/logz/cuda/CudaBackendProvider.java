package org.logz.cuda;

import org.logz.backend.BackendProvider;
import org.logz.backend.ParticleBackend;

/** ServiceLoader entry of the {@code cuda} backend: a GPU through JCuda. */
public final class CudaBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public boolean isAvailable() {
        return unavailableReason().isEmpty();
    }

    @Override
    public String unavailableReason() {
        try {
            return JCudaDevice.probe();
        } catch (LinkageError e) {
            return "JCuda is not on the class path (" + e + ")";
        }
    }

    /** @param threads unused: the GPU does the work */
    @Override
    public ParticleBackend create(int threads) {
        return new CudaBackend(name(), new JCudaDevice());
    }
}
