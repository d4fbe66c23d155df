package org.logz.testkit.reference;

import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.kernel.KernelBinding;
import org.logz.kernel.KernelProvider;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.model.BaseRate;
import org.logz.model.gmm.GaussianMixture;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.gpc.WhitenedGpc;
import org.logz.model.ising.Ising;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.StochasticVolatility;
import org.logz.model.mixture.Mixture;
import org.logz.model.rbm.MarginalRbm;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.GpcSequence;

/** The reference backend's kernel providers, one per model, found by ServiceLoader like every backend's. */
public final class ReferenceKernels {
    private ReferenceKernels() {
    }

    public static final class TemperedRbmProvider extends KernelBinding<ReferenceBackend, TemperedRbm> {
        public TemperedRbmProvider() {
            super(ReferenceBackend.class, TemperedRbm.class,
                    (backend, model) -> new ReferenceRbmKernel(backend, model.rbm(), model.baseRate().logOdds()), null);
        }
    }

    public static final class MarginalRbmProvider extends KernelBinding<ReferenceBackend, MarginalRbm> {
        public MarginalRbmProvider() {
            super(ReferenceBackend.class, MarginalRbm.class, ReferenceMarginalRbmKernel::new, null);
        }
    }

    public static final class RbmSequenceProvider extends KernelBinding<ReferenceBackend, RbmSequence> {
        public RbmSequenceProvider() {
            super(ReferenceBackend.class, RbmSequence.class, null, (backend, model) -> new ReferenceRbmKernel(backend,
                    model.permuted(), BaseRate.uniform(model.length()).logOdds()));
        }
    }

    public static final class GpcSequenceProvider extends KernelBinding<ReferenceBackend, GpcSequence> {
        public GpcSequenceProvider() {
            super(ReferenceBackend.class, GpcSequence.class, null, ReferenceGpcKernel::new);
        }
    }

    public static final class GpcAnnealingProvider extends KernelBinding<ReferenceBackend, TemperedGpc> {
        public GpcAnnealingProvider() {
            super(ReferenceBackend.class, TemperedGpc.class, ReferenceGpcAnnealingKernel::new, null);
        }
    }

    public static final class IsingProvider extends KernelBinding<ReferenceBackend, Ising> {
        public IsingProvider() {
            super(ReferenceBackend.class, Ising.class, ReferenceIsingKernel::new, null);
        }
    }

    public static final class GaussianToyProvider extends KernelBinding<ReferenceBackend, GaussianToy> {
        public GaussianToyProvider() {
            super(ReferenceBackend.class, GaussianToy.class, ReferenceGaussianToyKernel::new, null);
        }
    }

    public static final class GlmmProvider extends KernelBinding<ReferenceBackend, Glmm> {
        public GlmmProvider() {
            super(ReferenceBackend.class, Glmm.class, null, null, ReferenceLikelihoodKernel::new);
        }
    }

    public static final class SvProvider extends KernelBinding<ReferenceBackend, StochasticVolatility> {
        public SvProvider() {
            super(ReferenceBackend.class, StochasticVolatility.class, null, null, ReferenceLikelihoodKernel::new);
        }
    }

    public static final class GmmProvider extends KernelBinding<ReferenceBackend, GaussianMixture> {
        public GmmProvider() {
            super(ReferenceBackend.class, GaussianMixture.class, (backend, model) -> new ReferenceHmcKernel(backend,
                    model.hmc(), model.dimension(), new ReferenceGmmDensity(model)), null);
        }
    }

    public static final class WhitenedGpcProvider extends KernelBinding<ReferenceBackend, WhitenedGpc> {
        public WhitenedGpcProvider() {
            super(ReferenceBackend.class, WhitenedGpc.class, (backend, model) -> new ReferenceHmcKernel(backend,
                    model.hmc(), model.dimension(), new ReferenceGpcDensity(model)), null);
        }
    }

    public static final class MixtureProvider implements KernelProvider<Mixture> {
        @Override
        public Class<ReferenceBackend> backendType() {
            return ReferenceBackend.class;
        }

        @Override
        public Class<Mixture> modelType() {
            return Mixture.class;
        }

        @Override
        public Optional<PointLikelihoodKernel> pointLikelihood(ParticleBackend backend, Mixture model) {
            return Optional.of(new ReferenceMixtureKernel((ReferenceBackend) backend, model));
        }
    }
}
