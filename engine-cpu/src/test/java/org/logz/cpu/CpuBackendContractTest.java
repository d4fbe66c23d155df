package org.logz.cpu;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.KernelProviderContract;
import org.logz.testkit.ParticleBackendContract;
import org.logz.testkit.RbmKernelContract;
import org.logz.testkit.ResamplingContract;

/** The backend core, resampling, RBM kernel and provider contracts on the CPU backend. */
class CpuBackendContractTest {
    @Nested
    class Core extends ParticleBackendContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Resampling extends ResamplingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class RbmKernel extends RbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Providers extends KernelProviderContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }
}
