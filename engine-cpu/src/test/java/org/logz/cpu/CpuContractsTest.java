package org.logz.cpu;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.BackendContracts;

/** Every contract on the CPU backend. */
class CpuContractsTest extends BackendContracts {
    @Override
    protected ParticleBackend createBackend(int threads) {
        return CpuBackend.create(threads);
    }
}
