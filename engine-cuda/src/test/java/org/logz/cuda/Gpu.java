package org.logz.cuda;

import org.junit.jupiter.api.Assumptions;

/** Gate of the tests that need a real GPU: they run where one is present and are skipped, with the reason printed, elsewhere. */
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
        Assumptions.assumeTrue(reason.isEmpty(), () -> "no GPU: " + reason);
    }
}
