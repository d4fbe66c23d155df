package org.logz.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BinaryDatasetLimitsTest {
    private static void assertRefused(Runnable r, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
    }

    /** Packed rows are read in numpy.packbits order: unit i is bit 7 - i mod 8 of byte i / 8. */
    @Test
    void packedBitsFollowNumpyPackbitsOrder() {
        byte[] packed = {(byte) 0x80, 0x40, 0x01, (byte) 0x80};
        BinaryDataset d = BinaryDataset.ofPacked("p", 2, 10, packed, new byte[] {3, 7});
        assertTrue(d.get(0, 0) && d.get(0, 9) && d.get(1, 7) && d.get(1, 8));
        assertFalse(d.get(0, 1) || d.get(0, 8) || d.get(1, 0) || d.get(1, 9));
        assertEquals(7, d.label(1));
        assertEquals(2, d.size());
        assertEquals(10, d.dimension());
    }

    /** Sizes whose product passes 2^31 are a clear error, not an int overflow or NegativeArraySizeException. */
    @Test
    void hugeClaimedPackedSizesAreRefused() {
        assertRefused(() -> BinaryDataset.ofPacked("p", Integer.MAX_VALUE, Integer.MAX_VALUE, new byte[8], null),
                "p: 8 bytes do not pack 2147483647 rows of 2147483647 units");
        assertRefused(() -> BinaryDataset.ofPacked("p", 1 << 30, 1 << 20, new byte[16], null), "do not pack");
        assertRefused(() -> BinaryDataset.ofPacked("p", 1 << 30, 8, new byte[16], null), "do not pack");
    }

    /** Dense sizes whose product passes 2^31 are a clear error too. */
    @Test
    void hugeClaimedDenseSizesAreRefused() {
        assertRefused(() -> BinaryDataset.of("d", 1 << 16, 1 << 16, new float[4], null),
                "4 values do not form 65536×65536");
        assertRefused(() -> BinaryDataset.of("d", Integer.MAX_VALUE, 2, new float[2], null), "do not form");
    }

    /** Empty or negative sizes are refused. */
    @Test
    void emptySizesAreRefused() {
        assertRefused(() -> BinaryDataset.ofPacked("p", 0, 8, new byte[0], null), "at least one example and one unit");
        assertRefused(() -> BinaryDataset.ofPacked("p", 1, -8, new byte[1], null), "at least one example and one unit");
        assertRefused(() -> BinaryDataset.of("d", -1, 1, new float[1], null), "at least one example and one unit");
    }
}
