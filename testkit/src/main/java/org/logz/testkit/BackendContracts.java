package org.logz.testkit;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;

/**
 * Every contract, bound once to one backend: a backend module writes one subclass per backend it offers, whose only
 * member is {@link #createBackend}, and every contract runs on that backend as a {@link Nested} class here.
 *
 * <p>Nested classes, rather than a {@code @TestFactory} of dynamic tests, because they keep each contract's whole
 * JUnit lifecycle: {@code @BeforeEach}/{@code @AfterEach}, parameterized tests, and assumptions that skip a test with
 * their reason (a GPU binding without a GPU). Surefire reports each per binding ("CpuContractsTest Core", the
 * parent pom's phrased reporter); a module with several bindings runs each test class in a fork of its own
 * ({@code reuseForks=false}, as engine-cuda does), since surefire keys a fork's counts by the nested class the
 * bindings share. A new contract is one nested class here; {@code ContractCoverageTest} fails while a contract has
 * none.
 */
public abstract class BackendContracts {
    /** A fresh backend of this binding using {@code threads} host threads. */
    protected abstract ParticleBackend createBackend(int threads);

    @Nested
    class Core extends ParticleBackendContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Resampling extends ResamplingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Tempering extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Path extends TemperedPathContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Providers extends KernelProviderContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Sequential extends SequentialKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Likelihood extends LikelihoodKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class RbmKernel extends RbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class MarginalRbmKernel extends MarginalRbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Ising extends IsingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Potts extends PottsKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class GaussianToy extends GaussianToyKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Gpc extends GpcKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class GpcAnnealing extends GpcAnnealingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class Gmm extends GmmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class GpcHmc extends GpcHmcKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }

    @Nested
    class DataAnnealing extends DataAnnealingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return BackendContracts.this.createBackend(threads);
        }
    }
}
