package org.logz.model;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

import org.logz.base.UserException;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;

/**
 * Reverse starts of lattice models from their ground states (Habeck 2017, §6.1): {@code count} rows of {@code sites}
 * values, row r all {@code value(r)}, checked against the heap and Java's array limit first.
 */
public final class GroundStates {
    private GroundStates() {
    }

    /** {@code what} names the starts in the messages (e.g. "ground-state starts of the 32×32 Ising model"). */
    public static float[] rows(int count, int sites, String what, IntToDoubleFunction value) {
        HostMemory.requireHeap(Footprint.times(count, 4L * sites), count + " " + what);
        if ((long) count * sites > Integer.MAX_VALUE - 8) {
            throw new UserException(count + " starts of " + sites + " sites do not fit one Java array; use fewer chains");
        }
        float[] x = new float[count * sites];
        for (int r = 0; r < count; r++) {
            Arrays.fill(x, r * sites, (r + 1) * sites, (float) value.applyAsDouble(r));
        }
        return x;
    }
}
