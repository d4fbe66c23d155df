package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;

/**
 * The float32 all-level densities against float64 from the same pre-activations (DESIGN §4, "all levels in
 * float32"): for every row and level, |log f32 - log f64| <= 2.7e-7·H + 1e-13·scale and |slope32 - slope64| <=
 * 7e-7·Σ_j |u_j| + 1e-13·scale, the bounds the design derives from the exponential's measured error (1.7e-7),
 * float32 rounding of the argument and of 16-unit blocks, and float64 sums. Pre-activations from 10^-6 to 150 in
 * magnitude, levels from 0 to 1 with a negative one, hidden layers across a renormalization span.
 */
class LevelsErrorBoundTest {

    @Test
    void float32LevelsStayWithinTheirBound() {
        int rows = 40;
        double worstValue = 0;
        double worstSlope = 0;
        for (int h : new int[] {1, 17, 500, 1300}) {
            int n = 23;
            Rbm rbm = RandomRbm.create(n, h, 1.0, h);
            float[] a0 = RandomRbm.create(n, 1, 2.0, 3).visibleBias();
            JavaRbmMath math = new JavaRbmMath(rbm, a0);
            SplittableRandom random = new SplittableRandom(h);
            Tile u = new Tile(rows, h);
            Tile x = new Tile(rows, n);
            try {
                for (int i = 0; i < rows * h; i++) {
                    double scale = Math.pow(10, random.nextDouble() * 8.2 - 6);
                    u.buffer.put(i, (float) (scale * (random.nextBoolean() ? 1 : -1)));
                }
                for (int i = 0; i < rows * n; i++) {
                    x.buffer.put(i, random.nextBoolean() ? 1f : 0f);
                }
                double[] ladder = {0, 1e-4, 0.013, 0.25, 0.5, 0.77, 0.999, 1, -0.3};
                int levels = ladder.length;
                double[] logF = new double[rows * levels];
                double[] slope = new double[rows * levels];
                math.levels(u, x, 0, rows, ladder, levels, logF, slope, 0);
                for (int r = 0; r < rows; r++) {
                    double[] field = new double[h];
                    double absSum = 0;
                    double base = 0;
                    double target = 0;
                    double scale = 0;
                    for (int j = 0; j < h; j++) {
                        field[j] = u.buffer.get(r * h + j) + rbm.hiddenBias()[j];
                        absSum += Math.abs((float) field[j]);
                    }
                    for (int i = 0; i < n; i++) {
                        double xi = x.buffer.get(r * n + i);
                        base += a0[i] * xi;
                        target += rbm.visibleBias()[i] * xi;
                        scale += Math.abs(a0[i]) + Math.abs(rbm.visibleBias()[i]);
                    }
                    scale += 2 * absSum;
                    for (int k = 0; k < levels; k++) {
                        double beta = ladder[k];
                        double value = (1 - beta) * base + beta * target;
                        double derivative = target - base;
                        for (int j = 0; j < h; j++) {
                            double z = beta * (float) field[j];
                            value += Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));
                            derivative += (float) field[j] / (1 + Math.exp(-z));
                        }
                        double valueBound = 2.7e-7 * h + 1e-13 * (scale + Math.abs(value));
                        double slopeBound = 7e-7 * absSum + 1e-13 * (scale + Math.abs(derivative));
                        double valueError = Math.abs(logF[r * levels + k] - value);
                        double slopeError = Math.abs(slope[r * levels + k] - derivative);
                        String at = String.format(Locale.ROOT, "H=%d row %d β=%g", h, r, beta);
                        assertTrue(valueError <= valueBound, at + ": log f " + logF[r * levels + k] + " vs " + value);
                        assertTrue(slopeError <= slopeBound, at + ": slope " + slope[r * levels + k] + " vs " + derivative);
                        worstValue = Math.max(worstValue, valueError / valueBound);
                        worstSlope = Math.max(worstSlope, slopeError / slopeBound);
                    }
                }
            } finally {
                u.close();
                x.close();
            }
        }
        System.out.printf(Locale.ROOT, "float32 levels: largest error %.3f of the log f bound, %.3f of the slope bound%n",
                worstValue, worstSlope);
    }
}
