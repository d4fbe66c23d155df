package org.logz.memory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class FootprintTest {
    private static final long GIB = 1L << 30;

    /** Products of absurd sizes saturate at Long.MAX_VALUE instead of wrapping negative. */
    @Test
    void timesSaturates() {
        assertEquals(12, Footprint.times(3, 4));
        assertEquals(0, Footprint.times(0, Long.MAX_VALUE));
        assertEquals(0, Footprint.times(Long.MAX_VALUE, 0));
        assertEquals(Long.MAX_VALUE, Footprint.times(Long.MAX_VALUE, 2));
        assertEquals(Long.MAX_VALUE, Footprint.times(1L << 40, 1L << 30));
        assertEquals(1L << 62, Footprint.times(1L << 31, 1L << 31));
        assertEquals(Long.MAX_VALUE - 7, Footprint.times(Long.MAX_VALUE / 8, 8));
        assertEquals(Long.MAX_VALUE, Footprint.times(Long.MAX_VALUE / 8 + 1, 8));
    }

    /** Negative sizes are a programming error, refused. */
    @Test
    void timesRefusesNegativeSizes() {
        assertThrows(IllegalArgumentException.class, () -> Footprint.times(-1, 8));
        assertThrows(IllegalArgumentException.class, () -> Footprint.times(8, -1));
    }

    /** Sums of footprints saturate in every part and in the device total. */
    @Test
    void plusAndDeviceBytesSaturate() {
        Footprint huge = new Footprint(Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        Footprint sum = huge.plus(new Footprint(1, 2, 3));
        assertEquals(new Footprint(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE), sum);
        assertEquals(Long.MAX_VALUE, new Footprint(Long.MAX_VALUE, 1, 0).deviceBytes());
        assertEquals(7, new Footprint(3, 4, 100).deviceBytes());
        assertEquals(new Footprint(5, 4, 9), new Footprint(5, 1, 9).max(new Footprint(2, 4, 0)));
        assertEquals(new Footprint(0, 0, 42), Footprint.heap(42));
    }

    /** A negative part (an overflowed size) is refused on construction. */
    @Test
    void negativeFootprintIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Footprint(0, -1, 0));
        assertTrue(e.getMessage().contains("cannot be negative"), e.getMessage());
    }

    /** Sizes print in GiB with two decimals, MiB below one GiB, and the saturated size in words. */
    @Test
    void formatsBytes() {
        assertEquals("1.00 GiB", HostMemory.format(GIB));
        assertEquals("1.50 GiB", HostMemory.format(3 * GIB / 2));
        assertEquals("512.0 MiB", HostMemory.format(GIB / 2));
        assertEquals("0.0 MiB", HostMemory.format(0));
        assertEquals("1024.00 GiB", HostMemory.format(1024 * GIB));
        assertEquals("more than 8 EiB", HostMemory.format(Long.MAX_VALUE));
    }

    /** A heap need above the JVM's maximum is refused with both sizes and the advice. */
    @Test
    void requireHeapRefusesMoreThanTheJvmHas() {
        long max = Runtime.getRuntime().maxMemory();
        assumeTrue(max < Long.MAX_VALUE / 4, "the JVM reports no heap limit");
        long need = Math.max(2 * max, 4 * GIB);
        InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class,
                () -> HostMemory.requireHeap(need, "the test arrays"));
        assertTrue(e.getMessage().startsWith("the test arrays needs " + HostMemory.format(need) + ", the JVM has "),
                e.getMessage());
        assertTrue(e.getMessage().contains("GiB"), e.getMessage());
        assertTrue(e.getMessage().contains("LOGZ_JAVA_OPTS=-Xmx<size>"), e.getMessage());
        assertInstanceOf(IllegalArgumentException.class, e);
    }

    /** A saturated need (an absurd size) is refused like any other. */
    @Test
    void requireHeapRefusesASaturatedNeed() {
        assumeTrue(Runtime.getRuntime().maxMemory() < Long.MAX_VALUE, "the JVM reports no heap limit");
        InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class,
                () -> HostMemory.requireHeap(Footprint.times(Long.MAX_VALUE, 8), "everything"));
        assertTrue(e.getMessage().startsWith("everything needs more than 8 EiB"), e.getMessage());
    }

    /** A small need passes; the available heap is positive and at most the maximum. */
    @Test
    void requireHeapAcceptsASmallNeed() {
        assertDoesNotThrow(() -> HostMemory.requireHeap(1024, "a little"));
        long available = HostMemory.heapAvailable();
        assertTrue(available > 0 && available <= Runtime.getRuntime().maxMemory(), "available " + available);
        assertTrue(HostMemory.machineAvailable() > 0);
    }

    /** Without advice the message ends after the sizes. */
    @Test
    void messageWithoutAdvice() {
        InsufficientMemoryException e = new InsufficientMemoryException("x", 2 * GIB, GIB, "the device", null);
        assertEquals("x needs 2.00 GiB, the device has 1.00 GiB", e.getMessage());
        e = new InsufficientMemoryException("x", 2 * GIB, GIB, "the device", "use fewer chains");
        assertEquals("x needs 2.00 GiB, the device has 1.00 GiB; use fewer chains or ask for less", e.getMessage());
    }
}
