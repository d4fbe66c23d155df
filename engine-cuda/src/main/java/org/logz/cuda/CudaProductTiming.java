package org.logz.cuda;

import org.logz.backend.ParticleMatrix;
import org.logz.kernel.ProductTiming;
import org.logz.model.Rbm;

/**
 * The CUDA backend's {@link ProductTiming}: a Gibbs sweep's two products alone on the device, on the GEMM path the
 * sweeps use (cuBLAS SGEMM or rbm_gibbs.cu's tiled kernels), for as many rows as chains. Each product covers all rows
 * in one call, so whole-shape and kernel layouts are the same products; the values do not change their time, so the
 * operands are zeroed scratch rather than the chains' states.
 */
final class CudaProductTiming implements ProductTiming {
    private final CudaBackend backend;

    CudaProductTiming(CudaBackend backend) {
        this.backend = backend;
    }

    @Override
    public double seconds(Rbm rbm, ParticleMatrix x, int chains, int sweeps, boolean wholeShape) {
        int n = rbm.visible();
        int h = rbm.hidden();
        CudaDevice device = backend.device();
        GibbsKernels gibbs = backend.launcher(GibbsKernels.class, GibbsKernels::new);
        try (CudaMatrix xs = new CudaMatrix(backend, chains, n); CudaMatrix w = new CudaMatrix(backend, n, h);
             CudaMatrix u = new CudaMatrix(backend, chains, h); CudaMatrix v = new CudaMatrix(backend, chains, n)) {
            device.synchronize();
            long start = System.nanoTime();
            for (int s = 0; s < sweeps; s++) {
                if (device.gemmPath() == CudaDevice.GemmPath.BLAS) {
                    device.sgemm(false, false, h, chains, n, 1f, w.address(), h, xs.address(), n, 0f, u.address(), h);
                    device.sgemm(true, false, n, chains, h, 1f, w.address(), h, u.address(), h, 0f, v.address(), n);
                } else {
                    gibbs.gemm(chains, h, n, xs.address(), n, w.address(), h, false, 0f, u.address(), h);
                    gibbs.gemm(chains, n, h, u.address(), h, w.address(), h, true, 0f, v.address(), n);
                }
            }
            device.synchronize();
            return (System.nanoTime() - start) * 1e-9;
        }
    }

    /** The device's own products are its floor. */
    @Override
    public boolean onHost() {
        return false;
    }
}
