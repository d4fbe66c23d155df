package org.logz.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

import org.logz.backend.ParticleBackend;
import org.logz.model.LatentModel;
import org.logz.model.PointwiseLikelihood;
import org.logz.model.SequentialModel;
import org.logz.model.TemperedModel;

/**
 * Finds the kernels of a model on a backend among the {@link KernelProvider}s on the class path, and
 * hands them out behind a layer that checks every argument once (shapes, ranges, ownership, finite
 * temperatures), so providers' implementations need not.
 */
public final class Kernels {
    private static final List<KernelProvider<?>> PROVIDERS = load();

    private Kernels() {
    }

    private static List<KernelProvider<?>> load() {
        List<KernelProvider<?>> all = new ArrayList<>();
        ServiceLoader.load(KernelProvider.class).forEach(all::add);
        return List.copyOf(all);
    }

    /** Every provider on the class path. */
    public static List<KernelProvider<?>> providers() {
        return PROVIDERS;
    }

    /**
     * The tempered kernel of {@code model} on {@code backend}, its parameters uploaded; the caller closes it.
     *
     * @throws KernelUnavailableException when no provider serves this model on this backend, with why
     */
    public static TemperedKernel tempered(ParticleBackend backend, TemperedModel model) {
        TemperedKernel kernel = find(backend, model, "tempered", KernelProvider::tempered);
        return new CheckedTemperedKernel(backend, kernel, model.dimension());
    }

    /**
     * The sequential kernel of {@code model} on {@code backend}; the caller closes it.
     *
     * @throws KernelUnavailableException when no provider serves this model on this backend, with why
     */
    public static SequentialKernel sequential(ParticleBackend backend, SequentialModel model) {
        SequentialKernel kernel = find(backend, model, "sequential", KernelProvider::sequential);
        return new CheckedSequentialKernel(backend, kernel, model.length(), model.dimension());
    }

    /**
     * The batched likelihood estimator of {@code model} on {@code backend}; the caller closes it.
     *
     * @throws KernelUnavailableException when no provider serves this model on this backend, with why
     */
    public static LikelihoodKernel likelihood(ParticleBackend backend, LatentModel model) {
        return find(backend, model, "likelihood", KernelProvider::likelihood);
    }

    /**
     * The batched point likelihoods of {@code model} on {@code backend} where a provider has them; empty where none does
     * (the GLMM's groups, whose quadrature runs on the host). The caller closes it.
     */
    @SuppressWarnings("unchecked")
    public static Optional<PointLikelihoodKernel> pointLikelihood(ParticleBackend backend, PointwiseLikelihood model) {
        for (KernelProvider<?> p : PROVIDERS) {
            if (p.backendType().isInstance(backend) && p.modelType().isInstance(model)) {
                Optional<PointLikelihoodKernel> kernel = ((KernelProvider<Object>) p).pointLikelihood(backend, model);
                if (kernel.isPresent()) {
                    return kernel;
                }
            }
        }
        return Optional.empty();
    }

    @FunctionalInterface
    private interface Offer<K> {
        Optional<K> make(KernelProvider<Object> provider, ParticleBackend backend, Object model);
    }

    @SuppressWarnings("unchecked")
    private static <K> K find(ParticleBackend backend, Object model, String kind, Offer<K> offer) {
        List<String> reasons = new ArrayList<>();
        for (KernelProvider<?> p : PROVIDERS) {
            if (!p.backendType().isInstance(backend) || !p.modelType().isInstance(model)) {
                continue;
            }
            KernelProvider<Object> provider = (KernelProvider<Object>) p;
            Optional<String> declined = provider.declines(backend, model);
            if (declined.isPresent()) {
                reasons.add(declined.get());
                continue;
            }
            Optional<K> kernel = offer.make(provider, backend, model);
            if (kernel.isPresent()) {
                return kernel.get();
            }
        }
        throw new KernelUnavailableException(backend.name() + ": no " + kind + " kernel for this model ("
                + model.getClass().getSimpleName() + ")" + (reasons.isEmpty() ? "" : ": " + String.join("; ", reasons)));
    }
}
