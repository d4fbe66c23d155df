package org.logz.cuda;

import org.logz.io.NativeLibraries;

/**
 * The host-emulation JNI library of kernels-cu ({@code liblogz_cuda_emu.so}): device memory is host
 * memory, launches run the same kernel sources as fibers. Loaded once from the class path: the instrumented twin
 * ({@code liblogz_cuda_emu_profile.so}) when the configured checks include profile.
 */
final class EmulatorNative {
    private static final String LOAD_ERROR = load();

    private EmulatorNative() {
    }

    /** Empty when the library is loaded, else why not. */
    static String loadError() {
        return LOAD_ERROR;
    }

    private static String load() {
        String platform = NativeLibraries.platform();
        if (platform == null) {
            return "the host emulation is built for Linux only (this is " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + ")";
        }
        if (EmulatorChecks.configured().profile()) {
            return NativeLibraries.load(EmulatorNative.class, "/org/logz/cuda/native/" + platform
                            + "/liblogz_cuda_emu_profile.so", "liblogz_cuda_emu_profile.so",
                    "the emulator's profile library not built (kernels-cu's g++ could not compile the instrumented "
                            + "kernels; see kernels-cu/target/cuda-build/emu_profile.log)");
        }
        return NativeLibraries.load(EmulatorNative.class, "/org/logz/cuda/native/" + platform + "/liblogz_cuda_emu.so",
                "liblogz_cuda_emu.so", "emulator library not built (kernels-cu found no g++ or JDK headers at build time)");
    }

    /** {@code name:kinds;} for every registered kernel. */
    static native String kernels();

    static native int hostThreads();

    /** Whether this is the instrumented library that profile mode needs. */
    static native boolean profileBuilt();

    /** The launches profiled since the last call, one tab-separated line each (emu_profile.cpp). */
    static native String takeProfile();

    static native void setStrict(boolean strict);

    /** Check modes of every later launch and allocation: {@link EmulatorChecks#bits()}. */
    static native void setChecks(int checks);

    static native long allocate(long bytes);

    static native void release(long pointer);

    static native void fill(long pointer, int value, long bytes);

    static native void copy(long dst, long src, long bytes);

    static native void putFloat(long dst, float[] src, int offset, int count);

    static native void getFloat(long src, float[] dst, int offset, int count);

    static native void putDouble(long dst, double[] src, int offset, int count);

    static native void getDouble(long src, double[] dst, int offset, int count);

    static native void putInt(long dst, int[] src, int offset, int count);

    static native void getInt(long src, int[] dst, int offset, int count);

    static native void putLong(long dst, long[] src, int offset, int count);

    static native void getLong(long src, long[] dst, int offset, int count);

    static native void launch(String kernel, String kinds, long[] args, int gridX, int gridY, int gridZ, int blockX,
                              int blockY, int blockZ, int sharedBytes);

    static native void sgemm(boolean transA, boolean transB, int m, int n, int k, float alpha, long a, int lda, long b,
                             int ldb, float beta, long c, int ldc);
}
