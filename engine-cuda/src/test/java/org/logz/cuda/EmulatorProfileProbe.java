package org.logz.cuda;

import org.logz.kernel.KernelProfiling;

/**
 * Runs the profile mode's known-answer kernels (kernels-cu {@code selftest.cu}) and prints each launch's profile, one
 * line each: a separate JVM for {@link EmulatorProfileTest}, because the mode is fixed when the library loads.
 */
public final class EmulatorProfileProbe {
    private EmulatorProfileProbe() {
    }

    public static void main(String[] args) {
        EmulatedDevice device = new EmulatedDevice(CudaDevice.GemmPath.BLAS, true);
        int n = 256;
        long in = device.allocate(4L * 2 * n);
        long out = device.allocate(4L * n);
        device.zero(in, 4L * 2 * n);
        for (int stride : new int[] {1, 2}) {
            device.launch("logz_selftest_strided_copy", n / 64, 1, 64, 1, 0,
                    KernelArgs.of().ptr(in).ptr(out).i32(stride).i32(n));
        }
        for (int stride : new int[] {1, 32}) {
            device.launch("logz_selftest_banks", 1, 1, 32, 1, 0, KernelArgs.of().ptr(out).i32(stride));
        }
        for (KernelProfiling.Launch l : new EmulatorProfile().take()) {
            System.out.printf("%s %d %d %d %d %d %d %d %d%n", l.kernel(), l.globalRequests(), l.globalSectors(),
                    l.globalMinSectors(), l.distinctSectors(), l.sharedRequests(), l.sharedMaxWay(), l.basicBlocks(),
                    l.divergentBlocks());
        }
        device.free(in);
        device.free(out);
    }
}
