package org.logz.model.potts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.problem.Problem;

class PottsProblemTest {
    @Test
    void parsesHabecksModelWithDefaults() {
        PottsProblem p = (PottsProblem) Problem.parse("potts:q=10,L=32");
        assertEquals(new Potts(10, 32, 2, Potts.Moves.HEATBATH), p.model());
        assertEquals("potts:q=10,L=32,J=2", p.describe().model());
        assertEquals(1024 * Math.log(10), p.convention().orElseThrow().offset(), 1e-9);
        assertTrue(p.exactLogZ(true).isEmpty(), "no exact value for 32×32");
        PottsProblem m = (PottsProblem) Problem.parse(" Potts:Q=3, L=4, J=0.5, moves=Metropolis ");
        assertEquals(new Potts(3, 4, 0.5, Potts.Moves.METROPOLIS), m.model());
        assertEquals("potts:q=3,L=4,J=0.5,moves=metropolis", m.describe().model());
        assertEquals(PottsExact.logZ(3, 4, 0.5), m.exactLogZ(false).orElseThrow(), 1e-12);
    }

    @Test
    void refusesBadSpecsWithOneMessage() {
        String[][] cases = {
            {"potts", "q and L are required"}, {"potts:q=10", "q and L are required"}, {"potts:q=1,L=4", "from 2 to 255"},
            {"potts:q=256,L=4", "from 2 to 255"}, {"potts:q=10,L=3", "must be even"}, {"potts:q=10,L=0", "must be even"},
            {"potts:q=10,L=8192", "from 2 to 4096"}, {"potts:q=10,L=4,J=0", "J must be"}, {"potts:q=10,L=4,J=-1", "J must be"},
            {"potts:q=10,L=4,J=nan", "not a finite decimal"}, {"potts:q=10,L=4,J=1e9", "J must be"},
            {"potts:q=10,L=4,K=1", "'k' is not one of"}, {"potts:q=10,L=4,q=3", "Q is given twice"},
            {"potts:q=ten,L=4", "must be an integer"}, {"potts:q=10,L=4.5", "must be an integer"},
            {"potts:q=10,L=4,moves=gibbs", "heatbath or metropolis"}, {"potts:q=10,,L=4", "write potts:"},
            {"potts:q=10,L=4,", "write potts:"}, {"potts:q=10,L=99999999999", "must be an integer"}};
        for (String[] c : cases) {
            UserException e = assertThrows(UserException.class, () -> Problem.parse(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
        }
    }

    @Test
    void groundStatesCycleThroughTheColours() {
        Potts model = new Potts(3, 2, 2);
        float[] x = model.groundStates(5);
        for (int r = 0; r < 5; r++) {
            for (int i = 0; i < 4; i++) {
                assertEquals(r % 3, x[r * 4 + i]);
            }
            assertEquals(8, model.agreements(x, r * 4), "every bond agrees");
        }
    }
}
