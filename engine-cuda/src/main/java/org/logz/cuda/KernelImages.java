package org.logz.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * The GPU images kernels-cu builds with nvcc: a fatbin (SASS for sm_75 to sm_90 and PTX of the
 * build's CUDA version, for drivers of CUDA 13 or newer) and a PTX with {@code .version 8.0} that
 * drivers of CUDA 12 can JIT.
 */
final class KernelImages {
    static final String FATBIN = "/org/logz/cuda/logz_kernels.fatbin";
    static final String LOWERED_PTX = "/org/logz/cuda/logz_kernels.lowered.ptx";
    /** The first driver version (as cuDriverGetVersion reports it) that loads the fatbin's images. */
    static final int FATBIN_DRIVER = 13000;

    private KernelImages() {
    }

    static boolean built() {
        return KernelImages.class.getResource(FATBIN) != null && KernelImages.class.getResource(LOWERED_PTX) != null;
    }

    /** The image for a driver version; PTX comes null-terminated, as cuModuleLoadData wants it. */
    static byte[] forDriver(int driverVersion) {
        return driverVersion >= FATBIN_DRIVER ? fatbin() : loweredPtx();
    }

    static byte[] fatbin() {
        return read(FATBIN, false).orElseThrow(() -> new IllegalStateException("kernels not built"));
    }

    static byte[] loweredPtx() {
        return read(LOWERED_PTX, true).orElseThrow(() -> new IllegalStateException("kernels not built"));
    }

    private static Optional<byte[]> read(String resource, boolean nullTerminated) {
        try (InputStream in = KernelImages.class.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] bytes = in.readAllBytes();
            if (!nullTerminated) {
                return Optional.of(bytes);
            }
            byte[] terminated = new byte[bytes.length + 1];
            System.arraycopy(bytes, 0, terminated, 0, bytes.length);
            return Optional.of(terminated);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
