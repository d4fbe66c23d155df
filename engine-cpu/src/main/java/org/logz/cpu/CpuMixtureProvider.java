package org.logz.cpu;

import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.kernel.KernelProvider;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.model.mixture.Mixture;

/** A Gaussian mixture's point likelihoods (data annealing's moves) on the {@code cpu} backend. */
public final class CpuMixtureProvider implements KernelProvider<Mixture> {
    @Override
    public Class<CpuBackend> backendType() {
        return CpuBackend.class;
    }

    @Override
    public Class<Mixture> modelType() {
        return Mixture.class;
    }

    @Override
    public Optional<PointLikelihoodKernel> pointLikelihood(ParticleBackend backend, Mixture model) {
        return Optional.of(new CpuMixtureKernel((CpuBackend) backend, model));
    }
}
