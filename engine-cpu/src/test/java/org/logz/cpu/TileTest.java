package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;

/** The cpu backend's own off-heap tiles: zeroed, row addresses for the kernels, and a refusal beyond one buffer. */
class TileTest {
    @Test
    void aTileStartsAtZeroAndItsRowsAreWhereTheKernelsLook() {
        Tile tile = new Tile(3, 5);
        for (int i = 0; i < 15; i++) {
            assertEquals(0f, tile.buffer.get(i));
        }
        if (CpuNative.loadError().isEmpty()) {
            assertEquals(0, tile.address % 64, "64-byte aligned");
            assertEquals(tile.address + 4L * 2 * 5, tile.row(2));
        }
        tile.close();
        tile.close();
    }

    /** A direct buffer's capacity is an int: 64 rows of a 9,000,000-unit layer (2.1 GiB) are refused by name. */
    @Test
    void aTileBeyondOneBufferIsRefusedBeforeAnyAllocation() {
        UserException e = assertThrows(UserException.class, () -> new Tile(64, 9_000_000));
        assertTrue(e.getMessage().contains("at most 59 chains or particles fit, or a model with at most 8388607 units"),
                e.getMessage());
    }

    /** The model base rate's 200 chains ask before its mode search; a row beyond 2 GiB fits no number of chains. */
    @Test
    void theBackendRefusesShapesItsTilesCannotHold() {
        try (CpuBackend backend = CpuBackend.create(1)) {
            UserException e = assertThrows(UserException.class, () -> backend.requireShape(200, 9_000_000, "the run"));
            assertTrue(e.getMessage().startsWith("the run needs tiles of 64 rows × 9000000 values"), e.getMessage());
            backend.requireShape(200, 8_388_607, "the run");
            e = assertThrows(UserException.class, () -> backend.requireShape(1, 600_000_000, "the run"));
            assertTrue(e.getMessage().contains("no row of 600000000 values fits"), e.getMessage());
        }
    }
}
