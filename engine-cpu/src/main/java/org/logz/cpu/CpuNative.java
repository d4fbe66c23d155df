package org.logz.cpu;

import java.nio.ByteBuffer;
import java.util.Locale;

import org.logz.base.UserException;
import org.logz.io.NativeLibraries;

/**
 * The native RBM kernels of {@code engine-cpu/src/main/native} ({@code liblogz_cpu.so}, built by
 * {@code engine-cpu/build.sh}), loaded once from the class path: products with a fixed order of multiply-adds, Philox
 * and the draws 16 lanes at a time, AIS increments and all-level log densities (DESIGN §4 "CPU kernels"). Every
 * instruction set, and {@link JavaRbmMath}, gives the same bits.
 *
 * <p>The instruction set is the best one the machine runs, or the one the system property {@code logz.cpu.isa}
 * names ({@code avx512}, {@code avx2}, {@code generic}, or {@code java} for the Java path), never a better one
 * than the machine runs.
 */
final class CpuNative {
    static final int GENERIC = 0;
    static final int AVX2 = 1;
    static final int AVX512 = 2;
    private static final String[] NAMES = {"generic", "avx2", "avx512"};

    private static final String LOAD_ERROR = load();

    private CpuNative() {
    }

    /** Empty when the library is loaded, else why not. */
    static String loadError() {
        return LOAD_ERROR;
    }

    static String name(int isa) {
        return NAMES[isa];
    }

    /**
     * The instruction set new kernels use: the machine's best, lowered by {@code logz.cpu.isa}; -1 for the Java path
     * (no library, or {@code logz.cpu.isa=java}).
     */
    static int chosen() {
        String wanted = wanted();
        if (!LOAD_ERROR.isEmpty() || wanted.equals("java")) {
            return -1;
        }
        int isa = best();
        for (int named = 0; named < NAMES.length; named++) {
            if (NAMES[named].equals(wanted)) {
                isa = Math.min(named, isa);
            }
        }
        // a set below the best may be missing where the compiler could not build it
        while (!built(isa)) {
            isa--;
        }
        return isa;
    }

    /** The value of {@code logz.cpu.isa}, empty when unset; refused when it names no path. */
    private static String wanted() {
        String wanted = System.getProperty("logz.cpu.isa", "").trim().toLowerCase(Locale.ROOT);
        if (!wanted.isEmpty() && !wanted.equals("java") && !java.util.Arrays.asList(NAMES).contains(wanted)) {
            throw new UserException("-Dlogz.cpu.isa=" + wanted + " names no arithmetic path; use avx512, avx2, generic "
                    + "or java");
        }
        return wanted;
    }

    private static String load() {
        String platform = NativeLibraries.platform();
        if (platform == null) {
            return "the native CPU kernels are built for Linux on x86-64 and aarch64 (this is "
                    + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ")";
        }
        return NativeLibraries.load(CpuNative.class, "/org/logz/cpu/native/" + platform + "/liblogz_cpu.so",
                "liblogz_cpu.so", "native CPU kernels not built (engine-cpu/build.sh found no C++ compiler or JDK headers)");
    }

    /** The RBM kernels new kernels get, in words: "native avx512 RBM kernels", or the Java path and why. */
    static String arithmetic() {
        int isa = chosen();
        if (isa >= 0) {
            String wanted = wanted();
            boolean lowered = !wanted.isEmpty() && !wanted.equals(name(isa));
            return "native " + name(isa) + " RBM kernels" + (lowered ? " (logz.cpu.isa=" + wanted + ": this machine "
                    + "does not run it or this build lacks it; the nearest set below it)" : "");
        }
        return "Java RBM kernels (" + (LOAD_ERROR.isEmpty() ? "logz.cpu.isa=java" : LOAD_ERROR) + ")";
    }

    /** The best instruction set this machine runs and the library was built for. */
    static native int best();

    /** Whether the library holds the kernels of instruction set {@code isa} (the generic set always). */
    static native boolean built(int isa);

    /** {@code bytes} of zeroed memory for a {@link Tile}, 64-byte aligned, off the heap; null when none is left. */
    static native ByteBuffer allocate(int bytes);

    /** Frees what {@link #allocate} gave, once. */
    static native void release(ByteBuffer buffer);

    /** The address of a direct buffer, for the kernels. */
    static native long address(ByteBuffer buffer);

    /** An RBM packed for instruction set {@code isa}; 0 when out of memory. */
    static native long create(int isa, float[] w, float[] a, float[] b, float[] a0, int n, int h);

    static native void free(long rbm);

    static native int isa(long rbm);

    static native void productXw(long rbm, long x, int rows, int active, long u);

    static native void productHwt(long rbm, long hid, int rows, int active, long v);

    static native int sampleHidden(long rbm, long field, int rows, boolean withBias, float[] beta, int betaOffset, long seed,
                                   int particle0, int step, int tag, long out, int[] ambiguous);

    static native int sampleVisible(long rbm, long v, int rows, int active, float[] beta, int betaOffset, long seed,
                                    int particle0, int step, int tag, long x, int[] ambiguous);

    static native int anneal(long rbm, long u, long x, int rows, double from, double to, boolean draw, long seed,
                             int particle0, int step, int tag, double[] logW, int offset, long out, int[] ambiguous);

    static native void levels(long rbm, long u, long x, int rows, double[] betas, int levels, double[] logF,
                              double[] slope, int offset);
}
