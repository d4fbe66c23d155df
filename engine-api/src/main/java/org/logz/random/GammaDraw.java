package org.logz.random;

/**
 * Gamma(a, 1) draws in log space from Philox streams, for shapes a ≥ 1 (Marsaglia &amp; Tsang 2000): with
 * {@code d = a - 1/3}, {@code c = 1/√(9d)}, a standard normal x and {@code v = (1 + c x)³}, the draw {@code d v} is
 * accepted when {@code log u < x²/2 + d - d v + d log v}; a = 1 is an exponential, {@code -log u}. Attempt k of the draw
 * keyed by (index, iteration) reads Philox blocks (index, iteration, 2k, tag) for the normal (Box-Muller on its four
 * words) and (index, iteration, 2k + 1, tag) for u, so every draw is a function of its key alone. Acceptance is above
 * 0.95 for a ≥ 1; a thousand rejections in a row mean a broken stream.
 */
public final class GammaDraw {
    private GammaDraw() {
    }

    /** {@code log} of a Gamma(shape, 1) draw, shape ≥ 1 and finite. */
    public static double logStandard(double shape, long seed, int index, int iteration, int tag) {
        if (!(shape >= 1) || !Double.isFinite(shape)) {
            throw new IllegalArgumentException("Gamma draws need a finite shape of at least 1, got " + shape);
        }
        int[] w = new int[4];
        if (shape == 1) {
            Philox.block(seed, index, iteration, 0, tag, w);
            return Math.log(-Math.log(Philox.toUniformDouble(w[0], w[1])));
        }
        double d = shape - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        for (int k = 0; k < 1000; k++) {
            Philox.block(seed, index, iteration, 2 * k, tag, w);
            double u1 = Philox.toUniformDouble(w[0], w[1]);
            double u2 = Philox.toUniformDouble(w[2], w[3]);
            double x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            double v = 1 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            Philox.block(seed, index, iteration, 2 * k + 1, tag, w);
            double u = Philox.toUniformDouble(w[0], w[1]);
            double logV = Math.log(v);
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * logV) {
                return Math.log(d) + logV;
            }
        }
        throw new IllegalStateException("a Gamma(" + shape + ") draw rejected 1000 proposals: the random stream is broken");
    }
}
