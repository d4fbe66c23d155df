package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.estimate.tempered.TemperedSampling;

class MethodTest {
    /** Every method is found again by the name it prints, whatever its case and surrounding blanks. */
    @Test
    void namesRoundTrip() {
        for (Method m : Method.values()) {
            assertEquals(m, Method.parse(m.toString()));
            assertEquals(m, Method.parse(" " + m.toString().toUpperCase(java.util.Locale.ROOT) + " "));
        }
        assertEquals("ti-rb", Method.TI_RB.toString());
        assertEquals("arm-anticipate", ResampleMove.Variant.ANTICIPATE.method().toString());
    }

    /** An unknown name is a user error listing the names. */
    @Test
    void unknownNamesAreUserErrors() {
        UserException e = assertThrows(UserException.class, () -> Method.parse("sequential-mc"));
        assertTrue(e.getMessage().contains("no method named 'sequential-mc'") && e.getMessage().contains("jarzynski-forward"),
                e.getMessage());
    }

    /** A family's settings refuse a headline estimator of another family. */
    @Test
    void headlinesBelongToTheirFamily() {
        assertThrows(UserException.class, () -> new TemperedSampling.Settings(10, org.logz.schedule.Schedule.linear(3),
                null, 10, 1, 10, 2, 0, 1, Method.BAR));
        assertThrows(UserException.class, () -> new BidirectionalAnnealing.Settings(10, 10,
                org.logz.schedule.Schedule.linear(3), 10, 1, Method.RTS));
    }
}
