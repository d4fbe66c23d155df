package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.backend.BackendUnavailableException;
import org.logz.backend.Backends;
import org.logz.testkit.Emulator;

/** Both CUDA backends are found by name; an unavailable one says exactly why. */
class AvailabilityTest {
    @Test
    void providersAreFoundThroughServiceLoader() {
        List<String> names = Backends.providers().stream().map(p -> p.name()).toList();
        assertTrue(names.contains("cuda") && names.contains("cuda-emulated"), names.toString());
        Emulator.require();
    }

    @Test
    void anUnavailableGpuGivesOneOfTheDistinctReasons() {
        String reason = new CudaBackendProvider().unavailableReason();
        if (reason.isEmpty()) {
            return; // a GPU is here: GpuContractsTest covers it
        }
        assertTrue(reason.startsWith("no CUDA driver") || reason.startsWith("no CUDA device")
                || reason.startsWith("kernels not built") || reason.startsWith("the CUDA driver"), reason);
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class, () -> Backends.create("cuda", 1));
        assertEquals("backend 'cuda' is not available: " + reason, e.getMessage());
        assertEquals(reason, new CudaBackendProvider().unavailableReason(), "probed once, same answer");
    }

    @Test
    void exhaustedDeviceMemorySaysHowMuch() {
        Emulator.require();
        EmulatedDevice device = new EmulatedDevice(CudaDevice.GemmPath.BLAS, true);
        DeviceMemoryException e = assertThrows(DeviceMemoryException.class, () -> device.allocate(1L << 60));
        assertTrue(e.getMessage().startsWith("device memory exhausted: requested 1152921504606846976 bytes, "), e.getMessage());
        assertTrue(e.getMessage().endsWith(" free"), e.getMessage());
    }

    @Test
    void closingTheBackendFreesWhatIsStillOpen() {
        Emulator.require();
        CudaBackend backend = EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        var m = backend.matrix(10, 10);
        backend.close();
        backend.close();
        m.close();
        assertThrows(IllegalStateException.class, () -> backend.matrix(1, 1));
    }
}
