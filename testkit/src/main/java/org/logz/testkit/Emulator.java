package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Assumptions;
import org.logz.backend.BackendProvider;
import org.logz.backend.Backends;

/**
 * The host emulator of the CUDA kernels, which kernels-cu builds only where a C++ compiler is: a test that needs it
 * skips with the reason where it was not built, as GPU tests skip without a GPU, unless the system property
 * {@code logz.emulator.required} is true (CI's {@code .ci/run}), which makes its absence a failure.
 */
public final class Emulator {
    private Emulator() {
    }

    /** Skips the calling test, or fails it under {@code logz.emulator.required}, when cuda-emulated cannot run. */
    public static void require() {
        BackendProvider emulated = Backends.provider("cuda-emulated");
        String reason = emulated.isAvailable() ? "" : emulated.unavailableReason();
        if (Boolean.getBoolean("logz.emulator.required")) {
            assertEquals("", reason, "the emulator library is built by kernels-cu (logz.emulator.required)");
        }
        Assumptions.assumeTrue(reason.isEmpty(), () -> "cuda-emulated not built here: " + reason);
    }
}
