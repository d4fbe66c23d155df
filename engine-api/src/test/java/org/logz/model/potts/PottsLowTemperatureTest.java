package org.logz.model.potts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

class PottsLowTemperatureTest {
    /**
     * Deep in the ordered phase the expansion lands within its stated error of the transfer matrix, and its error is no
     * wild overstatement: the true error is at least a twentieth of it (the terms left out are there).
     */
    @Test
    void liesWithinItsErrorOfTheTransferMatrix() {
        // one 6×6 ten-colour lattice (Habeck's coupling; its transfer matrix takes seconds), the rest quick
        double[][] cases = {{10, 4, 1.75}, {10, 4, 2}, {10, 4, 2.5}, {10, 6, 2}, {20, 4, 2.1}, {5, 6, 2}, {3, 6, 1.25},
            {3, 8, 2}, {2, 8, 1.1}};
        for (double[] c : cases) {
            Potts model = new Potts((int) c[0], (int) c[1], c[2]);
            Reference r = PottsLowTemperature.reference(model).orElseThrow(() -> new AssertionError(model.description()));
            double error = Math.abs(r.logZ() - PottsExact.logZ(model));
            assertTrue(error <= r.stdErr() && error >= r.stdErr() / 20, model.description() + ": " + r + ", off by "
                    + error);
        }
    }

    /** Habeck's 32×32 ten-colour lattice: 1743.78 ± 0.02 as log Z − N ln q, the reference benches measure against. */
    @Test
    void givesHabecksLatticeItsReference() {
        Problem problem = Problem.parse("potts:q=10,L=32");
        Reference r = problem.reference(null).orElseThrow();
        assertEquals(Reference.REFERENCE, r.kind());
        assertEquals(1743.78, r.logZ() - 1024 * Math.log(10), 0.005);
        assertEquals(0.021, r.stdErr(), 0.001);
    }

    /** Near or below the transition, or where the terms left out are large, it offers nothing. */
    @Test
    void offersNothingOutsideTheOrderedPhase() {
        // J_c = ln(1 + √10) = 1.426: at 1.02 J_c on 4×4 the series is 1.2 stated errors off
        assertTrue(PottsLowTemperature.reference(new Potts(10, 4, 1.45)).isEmpty());
        assertTrue(PottsLowTemperature.reference(new Potts(10, 32, 1.7)).isEmpty());
        // the terms left out, 10 N q³ e^{-10J}, come to 1.7 here
        assertTrue(PottsLowTemperature.reference(new Potts(10, 256, 2)).isEmpty());
        // a small lattice keeps its exact value first
        assertEquals(Reference.EXACT, Problem.parse("potts:q=10,L=4").reference(null).orElseThrow().kind());
    }
}
