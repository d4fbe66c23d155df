package org.logz.model.potts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

class PottsLowTemperatureTest {
    /**
     * Deep in the ordered phase the expansion lands within its stated error of the transfer matrix, and not by a
     * wide error: the true error is at least a tenth of the stated one at J = 2 (the terms left out are there).
     */
    @Test
    void liesWithinItsErrorOfTheTransferMatrix() {
        for (double[] c : new double[][] {{10, 4, 2}, {10, 6, 2}, {10, 6, 2.5}, {10, 6, 3}, {3, 8, 2}, {5, 6, 2.5}}) {
            Potts model = new Potts((int) c[0], (int) c[1], c[2]);
            Reference r = PottsLowTemperature.reference(model).orElseThrow();
            double exact = PottsExact.logZ(model);
            assertTrue(Math.abs(r.logZ() - exact) <= r.stdErr(), model.description() + ": " + r + " against " + exact);
            if (c[2] == 2) {
                assertTrue(Math.abs(r.logZ() - exact) >= r.stdErr() / 10, model.description() + ": " + r);
            }
        }
    }

    /** Habeck's 32×32 ten-colour lattice: 1743.78 ± 0.02 as log Z − N ln q, the reference benches measure against. */
    @Test
    void givesHabecksLatticeItsReference() {
        Problem problem = Problem.parse("potts:q=10,L=32");
        Reference r = problem.reference(null).orElseThrow();
        assertEquals(Reference.REFERENCE, r.kind());
        assertEquals(1743.78, r.logZ() - 1024 * Math.log(10), 0.005);
        assertEquals(0.023, r.stdErr(), 0.001);
    }

    /** Near or below the transition, or where the terms left out are large, it offers nothing. */
    @Test
    void offersNothingOutsideTheOrderedPhase() {
        // J_c = ln(1 + √10) = 1.426
        assertTrue(PottsLowTemperature.reference(new Potts(10, 32, 1.4)).isEmpty());
        // the first term left out, 2.5 N (q-1)² e^{-8J}, is 2.3 here
        assertTrue(PottsLowTemperature.reference(new Potts(10, 64, 1.6)).isEmpty());
        // a small lattice keeps its exact value first
        assertEquals(Reference.EXACT, Problem.parse("potts:q=10,L=4").reference(null).orElseThrow().kind());
    }
}
