package org.logz.cuda;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.model.gpc.GpcSteps;
import org.logz.path.GpcPrecision;
import org.logz.path.GpcSequence;

/**
 * The GP classifier's sequential kernel on CUDA (gp_slice_gibbs.cu): the precisions are grown on the
 * host ({@link GpcPrecision}) and uploaded when the number of entered cases changes (m² doubles), the
 * sweeps' case orders with every move; z, the labels and the weights stay on the device.
 * {@link #logDensity} is not needed by the estimators (GP classification is not discrete) and is
 * computed on the host from downloaded states.
 */
final class CudaGpcKernel implements SequentialKernel {
    private final CudaBackend backend;
    private final GpcKernels kernels;
    private final GpcSequence model;
    private final GpcPrecision precision;
    private final int n;
    private final ParticleVector s;
    private final IndexVector labels;
    private int uploaded = -1;
    private IndexVector orders;
    /** v = S z of every moved row (GpcSteps), grown to the largest move seen. */
    private ParticleVector v;
    private boolean closed;

    CudaGpcKernel(CudaBackend backend, GpcSequence model) {
        this.backend = backend;
        this.kernels = backend.launcher(GpcKernels.class, GpcKernels::new);
        this.model = model;
        this.precision = model.precision();
        this.n = model.length();
        this.s = backend.vector(Math.multiplyExact(n, n));
        this.labels = backend.indices(n);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = model.label(i);
        }
        backend.upload(y, labels);
    }

    @Override
    public int length() {
        return n;
    }

    @Override
    public int[] stateColumns() {
        return new int[] {n};
    }

    /** {@code S^(m)} on the device. */
    private long precisionOnDevice(int m) {
        if (uploaded != m) {
            backend.upload(precision.at(m), s);
            uploaded = m;
        }
        return backend.own(s).at(0);
    }

    @Override
    public void reset(ParticleState state, int first, int count) {
        CudaMatrix z = states(state);
        if (count > 0) {
            backend.device().zero(z.row(first), 4L * count * n);
        }
    }

    @Override
    public void refresh(ParticleState state, int first, int count) {
        states(state);
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int transitions, long seed, int step) {
        CudaMatrix z = states(state);
        if (count == 0 || active == 0 || transitions == 0) {
            return;
        }
        int[] all = new int[Math.multiplyExact(transitions, active)];
        for (int t = 0; t < transitions; t++) {
            System.arraycopy(GpcSteps.sweepOrder(active, seed, step + t), 0, all, t * active, active);
        }
        if (orders == null || orders.length() < all.length) {
            if (orders != null) {
                orders.close();
            }
            orders = backend.indices(all.length);
        }
        backend.upload(all, orders);
        long scratch = (long) count * active;
        if (scratch > Integer.MAX_VALUE) {
            throw new UserException(count + " particles × " + active + " cases exceed the 2^31 doubles of one device "
                    + "buffer for the Gibbs sweeps' running S z; use fewer particles");
        }
        if (v == null || v.length() < scratch) {
            if (v != null) {
                v.close();
                v = null;
            }
            v = backend.vector((int) scratch);
        }
        kernels.move(z.row(first), count, n, active, precisionOnDevice(active),
                backend.own(orders).at(0), backend.own(labels).at(0), transitions, backend.own(v).address(),
                seed, step, first);
    }

    @Override
    public void smooth(ParticleState state, int variable, int first, int count, ParticleVector logW) {
        CudaMatrix z = states(state);
        if (count > 0) {
            kernels.smooth(z.row(first), count, n, variable, precisionOnDevice(variable + 1),
                    model.label(variable), backend.own(logW).at(first));
        }
    }

    @Override
    public void augment(ParticleState state, int variable, int first, int count, long seed, int step) {
        CudaMatrix z = states(state);
        if (count > 0) {
            kernels.augment(z.row(first), count, n, variable, precisionOnDevice(variable + 1),
                    model.label(variable), seed, step, first);
        }
    }

    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        states(state);
        float[] z = backend.download(state.variables(), count);
        double[] values = new double[count];
        for (int r = 0; r < count; r++) {
            values[r] = model.logDensity(precision, z, r * n);
        }
        // the host precision may have been regrown to another size
        uploaded = -1;
        backend.upload(values, out);
    }

    private CudaMatrix states(ParticleState state) {
        if (closed) {
            throw new IllegalStateException("GP classification kernel is closed");
        }
        return backend.own(state.variables());
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            s.close();
            labels.close();
            if (orders != null) {
                orders.close();
            }
            if (v != null) {
                v.close();
            }
        }
    }
}
