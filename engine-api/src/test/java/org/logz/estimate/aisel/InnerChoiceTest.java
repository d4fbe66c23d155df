package org.logz.estimate.aisel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.estimate.Warning;
import org.logz.model.Likelihood;

/** --inner auto's choice says when the rule asked for more draws than a likelihood estimate takes. */
class InnerChoiceTest {
    @Test
    void aCappedChoiceIsToldWithTheVarianceItReallyGets() {
        double[] center = {0};
        InnerChoice capped = new InnerChoice(Likelihood.MAX_DRAWS, 4.0 * Likelihood.MAX_DRAWS, 1e-9, 16, 0.26, center,
                500, 4, 1000);
        assertTrue(capped.capped());
        Warning w = Warning.innerCapped(capped.wanted(), capped.draws(), capped.targetVariance());
        assertEquals("inner-capped", w.code());
        assertTrue(w.message().contains("N = 4.19e+06") && w.message().contains("1048576")
                && w.message().contains("about 4.00e-09"), w.message());
        assertFalse(new InnerChoice(43, 43, 1, 16, 2.6, center, 400, 3, 1000).capped());
    }

    /** Twice √(ρ/(1-ρ)) adaptive steps per pilot step: 63 at the default ρ = 0.999, 2 at the pilot's own 0.5. */
    @Test
    void adaptiveStepsScaleWithTheEssTarget() {
        assertEquals(63.2, Aisel.adaptiveStepsPerPilotStep(0.999), 0.05);
        assertEquals(2, Aisel.adaptiveStepsPerPilotStep(0.5), 1e-12);
    }
}
