package org.logz.model.potts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.model.ising.Ising;
import org.logz.model.ising.IsingExact;
import org.logz.numeric.LogSpace;

class PottsExactTest {
    /** Σ over all q^{L²} colourings of e^{J S(x)}, S counted directly on the torus (each site's right and down bond). */
    private static double bruteForce(int colours, int size, double coupling) {
        int n = size * size;
        int states = (int) Math.pow(colours, n);
        double[] terms = new double[states];
        int[] x = new int[n];
        for (int s = 0; s < states; s++) {
            int rest = s;
            for (int i = 0; i < n; i++) {
                x[i] = rest % colours;
                rest /= colours;
            }
            int agree = 0;
            for (int r = 0; r < size; r++) {
                for (int c = 0; c < size; c++) {
                    int i = r * size + c;
                    agree += (x[i] == x[r * size + (c + 1) % size] ? 1 : 0) + (x[i] == x[(r + 1) % size * size + c] ? 1 : 0);
                }
            }
            terms[s] = coupling * agree;
        }
        return LogSpace.logSumExp(terms);
    }

    @Test
    void matchesEnumerationOnTinyTori() {
        int[][] cases = {{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 2}, {5, 2}};
        for (int[] c : cases) {
            for (double coupling : new double[] {0.3, 1.0, 2.0}) {
                double exact = bruteForce(c[0], c[1], coupling);
                assertEquals(exact, PottsExact.logZ(c[0], c[1], coupling), 1e-10 * Math.abs(exact),
                        "q=" + c[0] + " L=" + c[1] + " J=" + coupling);
            }
        }
    }

    /**
     * q = 2 is the Ising model: δ(x_i, x_j) = (1 + s_i s_j)/2, so J Σ δ = J·L² + (J/2) Σ s_i s_j over the 2L² bonds and
     * log Z_Potts(J) = J L² + log Z_Ising(β = J/2), both over 2^{L²} states.
     */
    /**
     * The 2 × 2 torus doubles every bond: a ring of four sites at coupling K = 2J, whose Z = (e^K + q - 1)^4 +
     * (q - 1)(e^K - 1)^4, in log form so that large J stays finite. Colours past a signed byte (q ≥ 128) and
     * couplings whose e^{2LJ} overflows once gave wrong or non-finite values.
     */
    @Test
    void manyColoursAndStrongCouplingsMatchTheRing() {
        for (int colours : new int[] {2, 10, 127, 128, 129, 200, 255}) {
            for (double coupling : new double[] {0.3, 2, 89, 400, 1000}) {
                double k = 2 * coupling;
                double ring = 4 * k + Math.log(Math.pow(1 + (colours - 1) * Math.exp(-k), 4)
                        + (colours - 1) * Math.pow(-Math.expm1(-k), 4));
                double logZ = PottsExact.logZ(colours, 2, coupling);
                assertEquals(ring, logZ, 1e-12 * Math.abs(ring), "q = " + colours + ", J = " + coupling);
            }
        }
        double strong = PottsExact.logZ(3, 4, 89);
        assertEquals(Math.log(3) + 32 * 89, strong, 1e-9 * strong, "ground states dominate at J = 89");
    }

    @Test
    void twoColoursAreIsingAtHalfTheCoupling() {
        for (int size : new int[] {2, 4, 6, 8}) {
            for (double coupling : new double[] {0.2, 0.88, 2.0}) {
                double ising = size * size * coupling + IsingExact.logZ(new Ising(size), coupling / 2);
                assertEquals(ising, PottsExact.logZ(new Potts(2, size, coupling)), 1e-9 * Math.abs(ising),
                        "L=" + size + " J=" + coupling);
            }
        }
    }

    /** Far above the transition (β J = 2 > ln(1 + √10) ≈ 1.43) log Z is the q ground states' 2JN plus small excitations. */
    @Test
    void tenColoursAtHabecksCouplingSitNearTheGroundStates() {
        Potts model = new Potts(10, 4, 2);
        double logZ = PottsExact.logZ(model);
        double ground = Math.log(10) + 2 * 2 * 16;
        assertTrue(logZ > ground && logZ < ground + 1, "log Z " + logZ + " vs ground states " + ground);
    }

    @Test
    void theLimitIsStatedAndEnforced() {
        assertTrue(PottsExact.feasible(10, 4));
        assertTrue(PottsExact.feasible(2, 12));
        assertTrue(PottsExact.feasible(3, 8));
        assertFalse(PottsExact.feasible(10, 8));
        assertFalse(PottsExact.feasible(2, 16));
        assertEquals(15, PottsExact.patterns(10, 4));
        assertEquals(2048, PottsExact.patterns(2, 12));
        UserException e = assertThrows(UserException.class, () -> PottsExact.logZ(new Potts(10, 32, 2)));
        assertTrue(e.getMessage().contains("exact log Z needs"), e.getMessage());
    }
}
