package org.logz.estimate.mbar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logz.estimate.PymbarFixtures;
import org.logz.estimate.work.Bar;
import org.logz.io.NpyArray;

class MbarTest {
    @ParameterizedTest
    @ValueSource(strings = {"mbar-oscillators", "mbar-unsampled-state"})
    void freeEnergiesAndUncertaintiesMatchPymbar(String fixture) {
        Map<String, NpyArray> f = PymbarFixtures.load(fixture);
        double[] flat = f.get("u").toDoubles();
        int k = f.get("u").shape()[0];
        int n = f.get("u").shape()[1];
        double[][] u = new double[k][n];
        for (int i = 0; i < k; i++) {
            System.arraycopy(flat, i * n, u[i], 0, n);
        }
        double[] countsD = f.get("counts").toDoubles();
        int[] counts = new int[k];
        for (int i = 0; i < k; i++) {
            counts[i] = (int) countsD[i];
        }
        Mbar m = Mbar.solve(u, counts);
        double[] expected = f.get("deltaF").toDoubles();
        double[] expectedErr = f.get("dDeltaF").toDoubles();
        double[][] err = m.stdErrs();
        for (int i = 0; i < k; i++) {
            assertEquals(expected[i], m.freeEnergies()[i], 1e-6, "f_" + i);
            assertEquals(expectedErr[i], err[0][i], 1e-6, "dΔf_0" + i);
        }
    }

    @Test
    void twoStatesReduceToBar() {
        Map<String, NpyArray> f = PymbarFixtures.load("bar-unequal");
        double[] wF = f.get("wF").toDoubles();
        double[] wR = f.get("wR").toDoubles();
        // state 0 samples have u_0 = 0, u_1 = wF; state 1 samples have u_0 = wR, u_1 = 0 (up to a common shift)
        double[][] u = new double[2][wF.length + wR.length];
        for (int i = 0; i < wF.length; i++) {
            u[1][i] = wF[i];
        }
        for (int i = 0; i < wR.length; i++) {
            u[0][wF.length + i] = wR[i];
        }
        Mbar m = Mbar.solve(u, new int[] {wF.length, wR.length});
        assertEquals(Bar.solve(wF, wR).deltaF(), m.freeEnergies()[1], 1e-9);
    }

    @Test
    void inconsistentInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Mbar.solve(new double[][] {{0, 1}, {1, 0}}, new int[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Mbar.solve(new double[][] {{0, Double.NaN}, {1, 0}}, new int[] {1, 1}));
    }
}
