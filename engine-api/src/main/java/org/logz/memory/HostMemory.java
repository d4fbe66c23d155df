package org.logz.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What the JVM and the machine can still give, and the checks that refuse a run that would not fit. */
public final class HostMemory {
    private HostMemory() {
    }

    /** Bytes the JVM heap can still grow into: the maximum heap less what live objects hold now. */
    public static long heapAvailable() {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }

    /**
     * Bytes the machine can still give a process outside the heap: Linux's MemAvailable (free memory
     * plus what the kernel can reclaim), or Long.MAX_VALUE where it cannot be read.
     */
    public static long machineAvailable() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    String[] parts = line.trim().split("\\s+");
                    return Long.parseLong(parts[1]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
        return Long.MAX_VALUE;
    }

    /**
     * Refuses {@code bytes} of heap for {@code what} when the JVM cannot hold them.
     *
     * @throws InsufficientMemoryException naming both sizes
     */
    public static void requireHeap(long bytes, String what) {
        long available = heapAvailable();
        if (bytes > available) {
            // what looks taken may be garbage not yet collected (a kernel's transient copy of W): collect once and
            // look again before refusing
            System.gc();
            available = heapAvailable();
        }
        if (bytes > available) {
            throw new InsufficientMemoryException(what, bytes, available, "the JVM",
                    "raise its heap with LOGZ_JAVA_OPTS=-Xmx<size>");
        }
    }

    /**
     * A copy of {@code values}, refused as {@link #requireHeap} refuses where the JVM cannot allocate it after all: the
     * heap's free bytes may lie in regions too scattered for one large array (the hostile review's J43: a 1 GiB copy
     * passed the byte count at -Xmx5500m and ended in OutOfMemoryError). A failed allocation of one array leaves
     * nothing half-built, so it is safe to report.
     */
    public static float[] copy(float[] values, String what) {
        try {
            return values.clone();
        } catch (OutOfMemoryError e) {
            throw refused(what, values.length);
        }
    }

    /** A new array of {@code length} floats, refused as {@link #copy} refuses. */
    public static float[] floats(int length, String what) {
        try {
            return new float[length];
        } catch (OutOfMemoryError e) {
            throw refused(what, length);
        }
    }

    private static InsufficientMemoryException refused(String what, int floats) {
        return new InsufficientMemoryException(what, 4L * floats, heapAvailable(), "the JVM (not in one piece)",
                "raise its heap with LOGZ_JAVA_OPTS=-Xmx<size>");
    }

    /** {@code bytes} in GiB with two decimals (MiB below one GiB), for messages. */
    public static String format(long bytes) {
        if (bytes == Long.MAX_VALUE) {
            return "more than 8 EiB";
        }
        double gib = bytes / (double) (1L << 30);
        return gib >= 1 ? String.format(Locale.ROOT, "%.2f GiB", gib)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
}
