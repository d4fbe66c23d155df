package org.logz.model.rbm;

import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.kernel.KernelProvider;
import org.logz.kernel.TemperedKernel;

/** The moment-averages path on every backend, through the backend's own RBM kernels ({@link RbmSplineKernel}). */
public final class RbmSplineProvider implements KernelProvider<RbmSpline> {
    @Override
    public Class<? extends ParticleBackend> backendType() {
        return ParticleBackend.class;
    }

    @Override
    public Class<RbmSpline> modelType() {
        return RbmSpline.class;
    }

    @Override
    public Optional<TemperedKernel> tempered(ParticleBackend backend, RbmSpline model) {
        return Optional.of(new RbmSplineKernel(backend, model));
    }
}
