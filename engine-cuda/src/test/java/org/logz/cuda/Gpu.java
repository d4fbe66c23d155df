package org.logz.cuda;

import org.junit.jupiter.api.Assumptions;

/**
 * Gate of the tests that need a real GPU: they run where one is present and are skipped, with the reason
 * printed, elsewhere; with {@code -Dlogz.gpu.required=true} (tools/gpu-check) a missing GPU fails them,
 * so a GPU run cannot pass by skipping.
 */
final class Gpu {
    private static volatile boolean printed;

    private Gpu() {
    }

    static void assumePresent() {
        String reason = new CudaBackendProvider().unavailableReason();
        if (!reason.isEmpty() && !printed) {
            printed = true;
            System.out.println("[GPU tests skipped] " + reason);
        }
        if (Boolean.getBoolean("logz.gpu.required") && !reason.isEmpty()) {
            throw new AssertionError("logz.gpu.required is set but the cuda backend cannot run: " + reason);
        }
        Assumptions.assumeTrue(reason.isEmpty(), () -> "no GPU: " + reason);
    }
}
