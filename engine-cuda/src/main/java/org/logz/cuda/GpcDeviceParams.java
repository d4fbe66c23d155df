package org.logz.cuda;

import org.logz.backend.ParticleVector;
import org.logz.model.gpc.TemperedGpc;

/**
 * A GP classifier's tempered path on the device, as gp_ellipse.cu and gpc_hmc.cu take it: {@code p = [μ (n) | a (n) |
 * b (n) | y (n, ±1.0)]} and the base's factor G by columns (rank × n), uploaded once per kernel.
 */
final class GpcDeviceParams implements AutoCloseable {
    private final CudaBackend backend;
    private final ParticleVector params;
    private final ParticleVector columns;

    GpcDeviceParams(CudaBackend backend, TemperedGpc model) {
        this.backend = backend;
        int n = model.size();
        double[] p = new double[4 * n];
        System.arraycopy(model.mean(), 0, p, 0, n);
        System.arraycopy(model.quadratic(), 0, p, n, n);
        System.arraycopy(model.linear(), 0, p, 2 * n, n);
        for (int i = 0; i < n; i++) {
            p[3 * n + i] = model.label(i);
        }
        double[] g = model.factor().columns();
        ParticleVector uploadedParams = backend.vector(p.length);
        ParticleVector uploadedColumns = null;
        try {
            backend.upload(p, uploadedParams);
            uploadedColumns = backend.vector(Math.max(1, g.length));
            if (g.length > 0) {
                backend.upload(g, uploadedColumns);
            }
        } catch (RuntimeException e) {
            uploadedParams.close();
            if (uploadedColumns != null) {
                uploadedColumns.close();
            }
            throw e;
        }
        this.params = uploadedParams;
        this.columns = uploadedColumns;
    }

    /** The address of p. */
    long p() {
        return backend.own(params).address();
    }

    /** The address of G's columns. */
    long columns() {
        return backend.own(columns).address();
    }

    @Override
    public void close() {
        params.close();
        columns.close();
    }
}
