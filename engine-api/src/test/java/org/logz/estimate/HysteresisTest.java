package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class HysteresisTest {
    private static List<TracePoint> trace(double[] betas, double[] energies, double stdErr) {
        List<TracePoint> out = new ArrayList<>();
        for (int i = 0; i < betas.length; i++) {
            out.add(new TracePoint(i, betas[i], 0, 100, energies[i], stdErr));
        }
        return out;
    }

    @Test
    void theRangeIsWhereTheTwoDirectionsMeanEnergiesPartBeyondTheirNoise() {
        double[] up = {0, 0.2, 0.4, 0.6, 0.8, 1};
        List<TracePoint> forward = trace(up, new double[] {0, -10, -20, -30, -40, -50}, 0.5);
        // the reverse run walks down and lags between 0.4 and 0.6; its points lie between the forward ones
        List<TracePoint> reverse = trace(new double[] {1, 0.7, 0.5, 0.3, 0.1},
                new double[] {-50, -35, -32, -15, -5}, 0.5);
        assertArrayEquals(new double[] {0.4, 0.6}, Hysteresis.parted(forward, reverse).orElseThrow(), 1e-12);
    }

    @Test
    void curvesWithinTheirNoiseOrWithoutEnergiesDoNotPart() {
        double[] betas = {0, 0.5, 1};
        List<TracePoint> forward = trace(betas, new double[] {0, -10, -20}, 1);
        assertTrue(Hysteresis.parted(forward, trace(betas, new double[] {1, -12, -20}, 1)).isEmpty());
        assertTrue(Hysteresis.parted(forward, trace(betas, new double[] {Double.NaN, Double.NaN, Double.NaN}, 1)).isEmpty());
    }
}
