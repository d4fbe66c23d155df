package org.logz.cpu;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.ParticleBackendContract;

class CpuBackendContractTest extends ParticleBackendContract {
    @Override
    protected ParticleBackend createBackend(int threads) {
        return CpuBackend.create(threads);
    }
}
