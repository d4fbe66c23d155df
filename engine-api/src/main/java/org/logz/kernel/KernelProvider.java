package org.logz.kernel;

import java.util.Optional;

import org.logz.backend.ParticleBackend;

/**
 * Supplies the kernels of one model type on one backend type, found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/org.logz.kernel.KernelProvider}). A new
 * model brings its own providers; a backend that has no provider for a model is told so by
 * {@link Kernels} with a one-line reason, and nothing else in that backend changes.
 *
 * @param <M> the model type, e.g. {@link org.logz.model.ising.Ising}
 */
public interface KernelProvider<M> {
    /** The backends this provider serves (instances of this class). */
    Class<? extends ParticleBackend> backendType();

    /** The models this provider serves (instances of this class). */
    Class<M> modelType();

    /** Why this provider cannot serve {@code model} on {@code backend}, in one phrase; empty when it can. */
    default Optional<String> declines(ParticleBackend backend, M model) {
        return Optional.empty();
    }

    /** The tempered kernel bound to {@code model} (parameters uploaded), or empty when there is none. */
    default Optional<TemperedKernel> tempered(ParticleBackend backend, M model) {
        return Optional.empty();
    }

    /** The batched likelihood estimator of a latent-variable {@code model}, or empty when there is none. */
    default Optional<LikelihoodKernel> likelihood(ParticleBackend backend, M model) {
        return Optional.empty();
    }

    /** The batched exact point likelihoods of a pointwise {@code model}, or empty when there are none. */
    default Optional<PointLikelihoodKernel> pointLikelihood(ParticleBackend backend, M model) {
        return Optional.empty();
    }

    /** The sequential kernel bound to {@code model}, or empty when there is none. */
    default Optional<SequentialKernel> sequential(ParticleBackend backend, M model) {
        return Optional.empty();
    }
}
