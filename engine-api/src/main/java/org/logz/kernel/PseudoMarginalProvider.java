package org.logz.kernel;

import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;

/**
 * AISEL's tempered kernel on every backend: {@link PseudoMarginalKernel} around the backend's own
 * {@link LikelihoodKernel} (found through the providers of the latent model), or the host's exact likelihood.
 */
public final class PseudoMarginalProvider implements KernelProvider<PseudoMarginal> {
    @Override
    public Class<? extends ParticleBackend> backendType() {
        return ParticleBackend.class;
    }

    @Override
    public Class<PseudoMarginal> modelType() {
        return PseudoMarginal.class;
    }

    @Override
    public Optional<TemperedKernel> tempered(ParticleBackend backend, PseudoMarginal model) {
        LikelihoodKernel estimator = model.likelihood() instanceof Likelihood.Estimated
                ? Kernels.likelihood(backend, model.latent()) : null;
        return Optional.of(new PseudoMarginalKernel(backend, model, estimator));
    }
}
