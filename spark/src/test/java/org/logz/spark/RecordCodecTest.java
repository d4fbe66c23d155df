package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;
import org.logz.estimate.Method;

class RecordCodecTest {
    private record Inner(Method method, OptionalDouble bound, Optional<String> note) {
    }

    private record Outer(double x, float y, long n, boolean flag, String text, double[] values, float[] floats,
                         int[] counts, long[] visits, List<Inner> inner, Map<String, Integer> tally, Inner nested) {
    }

    @Test
    void recordsComeBackToTheBit() {
        double negativeNan = Double.longBitsToDouble(0xfff8_0000_0000_0001L);
        Outer before = new Outer(-0.0, Float.MIN_VALUE, Long.MIN_VALUE, true, "é".repeat(40_000),
                new double[] {negativeNan, Double.NEGATIVE_INFINITY, 1e-320}, new float[] {Float.NaN, -0f},
                new int[] {Integer.MIN_VALUE}, new long[] {}, Arrays.asList(new Inner(Method.AIS, OptionalDouble.of(3.5),
                Optional.of("n")), null, new Inner(Method.BAR, OptionalDouble.empty(), Optional.empty())),
                Map.of("k", 7), null);
        Outer after = (Outer) RecordCodec.decode(RecordCodec.encode(before));
        assertEquals(Double.doubleToRawLongBits(before.x()), Double.doubleToRawLongBits(after.x()));
        assertEquals(before.y(), after.y());
        assertEquals(before.n(), after.n());
        assertEquals(before.text(), after.text(), "strings longer than writeUTF's 64 KB");
        assertEquals(Double.doubleToRawLongBits(negativeNan), Double.doubleToRawLongBits(after.values()[0]),
                "a NaN keeps its payload");
        assertArrayEquals(before.values(), after.values());
        assertArrayEquals(before.floats(), after.floats());
        assertArrayEquals(before.counts(), after.counts());
        assertArrayEquals(before.visits(), after.visits());
        assertEquals(before.inner(), after.inner());
        assertEquals(before.tally(), after.tally());
        assertEquals(null, after.nested());
    }

    @Test
    void whatIsNoRecordOrValueIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RecordCodec.encode(List.of(new ArrayList<>(List.of(new StringBuilder("x"))))));
        assertTrue(e.getMessage().contains("java.lang.StringBuilder"), e.getMessage());
    }

    @Test
    void damagedBytesAreRefused() {
        byte[] bytes = RecordCodec.encode(List.of(1.0, 2.0));
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(longer));
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(new byte[] {(byte) 200}));
    }
}
