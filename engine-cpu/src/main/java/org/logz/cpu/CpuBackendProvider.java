package org.logz.cpu;

import org.logz.backend.BackendProvider;
import org.logz.backend.ParticleBackend;
import org.nd4j.linalg.factory.Nd4j;

/** ServiceLoader entry for the {@code cpu} backend. */
public final class CpuBackendProvider implements BackendProvider {
    private static volatile String probe;

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public boolean isAvailable() {
        return unavailableReason().isEmpty();
    }

    @Override
    public String unavailableReason() {
        String result = probe;
        if (result == null) {
            synchronized (CpuBackendProvider.class) {
                result = probe;
                if (result == null) {
                    result = loadNd4j();
                    probe = result;
                }
            }
        }
        return result;
    }

    /** Loads ND4J's native library once; empty on success, else the reason. */
    private static String loadNd4j() {
        try {
            Nd4j.getBackend();
            return "";
        } catch (Throwable e) {
            // UnsatisfiedLinkError, NoClassDefFoundError, ExceptionInInitializerError: all mean no ND4J here
            return "ND4J native library could not be loaded (" + e + ")";
        }
    }

    /** Which RBM arithmetic runs: the native kernels of an instruction set, or the Java path and why. */
    @Override
    public String detail() {
        return CpuNative.arithmetic();
    }

    @Override
    public ParticleBackend create(int threads) {
        return CpuBackend.create(threads);
    }
}
