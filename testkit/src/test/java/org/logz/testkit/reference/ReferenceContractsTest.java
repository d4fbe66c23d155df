package org.logz.testkit.reference;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.GaussianToyKernelContract;
import org.logz.testkit.GpcAnnealingKernelContract;
import org.logz.testkit.GpcKernelContract;
import org.logz.testkit.IsingKernelContract;
import org.logz.testkit.KernelProviderContract;
import org.logz.testkit.LikelihoodKernelContract;
import org.logz.testkit.ParticleBackendContract;
import org.logz.testkit.RbmKernelContract;
import org.logz.testkit.ResamplingContract;
import org.logz.testkit.SequentialKernelContract;
import org.logz.testkit.TemperedPathContract;
import org.logz.testkit.TemperingContract;

/**
 * Every contract on the reference backend. Its comparisons with the host code of engine-api
 * ({@code Resampling}, {@code TemperingSteps}) are the ones that make the reference worth having: two
 * implementations of one specification, written apart, that agree to the bit.
 */
class ReferenceContractsTest {
    @Nested
    class Backend extends ParticleBackendContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Resampling extends ResamplingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class RbmKernel extends RbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Providers extends KernelProviderContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Tempering extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Ising extends IsingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class GaussianToy extends GaussianToyKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Sequential extends SequentialKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Path extends TemperedPathContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Gpc extends GpcKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class GpcAnnealing extends GpcAnnealingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }

    @Nested
    class Likelihood extends LikelihoodKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return new ReferenceBackend();
        }
    }
}
