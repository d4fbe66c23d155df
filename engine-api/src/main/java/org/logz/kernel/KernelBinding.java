package org.logz.kernel;

import java.util.Optional;
import java.util.function.BiFunction;

import org.logz.backend.ParticleBackend;

/**
 * A {@link KernelProvider} for one backend type and one model type that binds kernels with a
 * constructor: what nearly every provider is. A backend module's provider for a new model is then a
 * class with a no-argument constructor that names the two types and the kernel's constructor.
 *
 * @param <B> the backend type
 * @param <M> the model type
 */
public abstract class KernelBinding<B extends ParticleBackend, M> implements KernelProvider<M> {
    private final Class<B> backendType;
    private final Class<M> modelType;
    private final BiFunction<B, M, ? extends TemperedKernel> tempered;
    private final BiFunction<B, M, ? extends SequentialKernel> sequential;
    private final BiFunction<B, M, ? extends LikelihoodKernel> likelihood;

    /**
     * @param tempered   binds the model's tempered kernel; null when the backend has none
     * @param sequential binds the model's sequential kernel; null when the backend has none
     */
    protected KernelBinding(Class<B> backendType, Class<M> modelType, BiFunction<B, M, ? extends TemperedKernel> tempered,
                            BiFunction<B, M, ? extends SequentialKernel> sequential) {
        this(backendType, modelType, tempered, sequential, null);
    }

    /** @param likelihood binds a latent-variable model's batched likelihood estimator; null when the backend has none */
    protected KernelBinding(Class<B> backendType, Class<M> modelType, BiFunction<B, M, ? extends TemperedKernel> tempered,
                            BiFunction<B, M, ? extends SequentialKernel> sequential,
                            BiFunction<B, M, ? extends LikelihoodKernel> likelihood) {
        this.backendType = backendType;
        this.modelType = modelType;
        this.tempered = tempered;
        this.sequential = sequential;
        this.likelihood = likelihood;
    }

    @Override
    public final Class<B> backendType() {
        return backendType;
    }

    @Override
    public final Class<M> modelType() {
        return modelType;
    }

    @Override
    public final Optional<TemperedKernel> tempered(ParticleBackend backend, M model) {
        return Optional.ofNullable(tempered).map(f -> f.apply(backendType.cast(backend), model));
    }

    @Override
    public final Optional<SequentialKernel> sequential(ParticleBackend backend, M model) {
        return Optional.ofNullable(sequential).map(f -> f.apply(backendType.cast(backend), model));
    }

    @Override
    public final Optional<LikelihoodKernel> likelihood(ParticleBackend backend, M model) {
        return Optional.ofNullable(likelihood).map(f -> f.apply(backendType.cast(backend), model));
    }
}
