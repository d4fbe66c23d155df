package org.logz.cuda;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.GaussianToyOpsContract;
import org.logz.testkit.IsingOpsContract;
import org.logz.testkit.TemperingContract;

/** The tempering, Ising and Gaussian toy contracts on a real GPU; skipped without one. */
class GpuModelContractsTest {
    private static ParticleBackend gpu() {
        Gpu.assumePresent();
        return new CudaBackendProvider().create(1);
    }

    @Nested
    class Tempering extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class Ising extends IsingOpsContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class GaussianToy extends GaussianToyOpsContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }
}
