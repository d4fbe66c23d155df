package org.logz.model.data;

import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.kernel.KernelProvider;
import org.logz.kernel.SequentialKernel;

/**
 * Data annealing's sequential kernel on every backend: {@link DataAnnealingKernel}, whose moves follow the whole cloud
 * and whose exact point likelihoods (a quadrature per GLMM group) run on the host, as the pseudo-marginal kernel's
 * exact likelihoods do.
 */
public final class DataAnnealingProvider implements KernelProvider<DataSequence> {
    @Override
    public Class<? extends ParticleBackend> backendType() {
        return ParticleBackend.class;
    }

    @Override
    public Class<DataSequence> modelType() {
        return DataSequence.class;
    }

    @Override
    public Optional<SequentialKernel> sequential(ParticleBackend backend, DataSequence model) {
        return Optional.of(new DataAnnealingKernel(backend, model));
    }
}
