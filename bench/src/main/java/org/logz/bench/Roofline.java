package org.logz.bench;

import java.util.Locale;

import org.logz.base.UserException;

/**
 * A GPU as a roofline: DRAM bandwidth, FP32 peak (without tensor cores) and memory, from NVIDIA's data sheets: H100
 * SXM5 3.35 TB/s, 67 TFLOPS and 80 GB; A100 SXM4 80 GB 2.039 TB/s and 19.5 TFLOPS. A kernel's time is at least its
 * bytes over the bandwidth and its flops over the peak; launch latency (a few µs a kernel) is not counted, so the
 * projection of a sweep of few chains is too short.
 */
public enum Roofline {
    H100("H100 SXM5", 3.35e12, 67e12, 80e9),
    A100("A100 SXM4 80GB", 2.039e12, 19.5e12, 80e9);

    public final String label;
    public final double bytesPerSecond;
    public final double flopsPerSecond;
    public final double memoryBytes;

    Roofline(String label, double bytesPerSecond, double flopsPerSecond, double memoryBytes) {
        this.label = label;
        this.bytesPerSecond = bytesPerSecond;
        this.flopsPerSecond = flopsPerSecond;
        this.memoryBytes = memoryBytes;
    }

    public static Roofline parse(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserException("--project " + name + ": expected h100 or a100");
        }
    }

    /** Seconds of a kernel that moves {@code bytes} and computes {@code flops}. */
    public double seconds(double bytes, double flops) {
        return Math.max(bytes / bytesPerSecond, flops / flopsPerSecond);
    }

    /** An SGEMM C (m × n) = A (m × k) B (k × n) that reads A and B and writes C once. */
    public double sgemmSeconds(long m, long n, long k) {
        return seconds(4.0 * (m * k + k * n + m * n), 2.0 * m * n * k);
    }
}
