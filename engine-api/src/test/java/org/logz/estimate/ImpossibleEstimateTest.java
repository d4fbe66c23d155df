package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;
import org.logz.base.EstimationException;

class ImpossibleEstimateTest {
    /** An estimate below the log density of a visited state by more than the tolerance is refused. */
    @Test
    void estimateBelowTheVisitedBoundIsRefused() {
        ImpossibleEstimateException e = assertThrows(ImpossibleEstimateException.class,
                () -> ImpossibleEstimateException.check(Method.AIS, 99.998, OptionalDouble.of(100)));
        assertTrue(e.getMessage().startsWith("ais: the estimate 99.9980 lies below 100.0000, the log unnormalized "
                + "probability of a state the run visited, by more than three standard errors"), e.getMessage());
        assertInstanceOf(EstimationException.class, e);
    }

    /** Rounding below the bound (within 1e-3 + 1e-6·|bound|) is tolerated. */
    @Test
    void estimateWithinTheToleranceIsAccepted() {
        assertDoesNotThrow(() -> ImpossibleEstimateException.check(Method.AIS, 99.9995, OptionalDouble.of(100)));
        assertDoesNotThrow(() -> ImpossibleEstimateException.check(Method.AIS, -1e6 - 0.99, OptionalDouble.of(-1e6)));
        assertThrows(ImpossibleEstimateException.class,
                () -> ImpossibleEstimateException.check(Method.AIS, -1e6 - 1.01, OptionalDouble.of(-1e6)));
        assertDoesNotThrow(() -> ImpossibleEstimateException.check(Method.AIS, 150, OptionalDouble.of(100)));
    }

    /** Without a visited bound nothing is checked. */
    @Test
    void noBoundNoCheck() {
        assertDoesNotThrow(() -> ImpossibleEstimateException.check(Method.AIS, -1e300, OptionalDouble.empty()));
        assertEquals(Optional.empty(), ImpossibleEstimateException.atBound(Method.AIS, -1e300, OptionalDouble.empty()));
    }

    /** An estimate within 0.01 of the bound gets the single-state warning naming method and numbers. */
    @Test
    void estimateOnTheBoundWarnsSingleState() {
        Warning w = ImpossibleEstimateException.atBound(Method.BAR, 100.005, OptionalDouble.of(100)).orElseThrow();
        assertEquals("single-state", w.code());
        assertTrue(w.message().startsWith("bar: the estimate 100.0050 is within 0.01 of 100.0000, the largest"),
                w.message());
        assertTrue(ImpossibleEstimateException.atBound(Method.BAR, 99.9995, OptionalDouble.of(100)).isPresent(),
                "tolerated rounding below the bound also sits on it");
    }

    /** An estimate clearly above the bound gets no warning. */
    @Test
    void estimateAboveTheBoundDoesNotWarn() {
        assertFalse(ImpossibleEstimateException.atBound(Method.BAR, 100.02, OptionalDouble.of(100)).isPresent());
    }

    /** Warnings need a code and a message. */
    @Test
    void warningWithoutCodeOrMessageIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Warning(" ", "m"));
        assertThrows(IllegalArgumentException.class, () -> new Warning("c", null));
    }
}
