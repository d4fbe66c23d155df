package org.logz.cuda;

import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.kernel.KernelProvider;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.model.mixture.Mixture;

/** A Gaussian mixture's point likelihoods (mixture.cu) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaMixtureProvider implements KernelProvider<Mixture> {
    @Override
    public Class<CudaBackend> backendType() {
        return CudaBackend.class;
    }

    @Override
    public Class<Mixture> modelType() {
        return Mixture.class;
    }

    @Override
    public Optional<PointLikelihoodKernel> pointLikelihood(ParticleBackend backend, Mixture model) {
        return Optional.of(new CudaMixtureKernel((CudaBackend) backend, model));
    }
}
