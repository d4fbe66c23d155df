package org.logz.cpu;

import java.nio.FloatBuffer;

import org.logz.model.Rbm;

/**
 * {@link RbmMath} in Java: the reference of the native kernels and the path where they are missing. The products
 * take the multiply-adds of each output in order of k (skipping zero inputs, which adds nothing: an accumulator that
 * starts at +0 never becomes -0); the draws are {@link RbmDraws}'; an AIS step's weight and the all-level densities are
 * {@link FastMath}'s. Bit for bit the native kernels' results.
 */
final class JavaRbmMath implements RbmMath {
    private final int n;
    private final int h;
    /** W, N × H row-major. */
    private final float[] w;
    /** Wᵀ, H × N row-major, so that both products add contiguous rows; made on first use (the native path never does). */
    private float[] wt;
    private final float[] a;
    private final float[] b;
    private final float[] a0;
    private final double[] visibleSlope;

    JavaRbmMath(Rbm model, float[] a0) {
        this.n = model.visible();
        this.h = model.hidden();
        this.w = model.weights();
        this.a = model.visibleBias();
        this.b = model.hiddenBias();
        this.a0 = a0;
        this.visibleSlope = new double[n];
        for (int i = 0; i < n; i++) {
            visibleSlope[i] = (double) a[i] - a0[i];
        }
    }

    private synchronized float[] transposed() {
        if (wt == null) {
            float[] t = new float[n * h];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < h; j++) {
                    t[j * n + i] = w[i * h + j];
                }
            }
            wt = t;
        }
        return wt;
    }

    @Override
    public void productXw(Tile x, int from, int to, int active, Tile u) {
        product(x.buffer, n, from, to, active, w, h, h, u.buffer, h);
    }

    @Override
    public void productHwt(Tile hid, int from, int to, int active, Tile v) {
        product(hid.buffer, h, from, to, h, transposed(), n, active, v.buffer, n);
    }

    /** {@code out_r[0, cols) = Σ_k in[r, k]·b[k, 0, cols)} over k < inner in order, b rows of width ldb. */
    private static void product(FloatBuffer in, int ldIn, int from, int to, int inner, float[] bRows, int ldb, int cols,
                                FloatBuffer out, int ldOut) {
        float[] acc = new float[cols];
        for (int r = from; r < to; r++) {
            java.util.Arrays.fill(acc, 0f);
            for (int k = 0; k < inner; k++) {
                float value = in.get(r * ldIn + k);
                int row = k * ldb;
                if (value == 1f) {
                    for (int j = 0; j < cols; j++) {
                        acc[j] += bRows[row + j];
                    }
                } else if (value != 0f) {
                    for (int j = 0; j < cols; j++) {
                        acc[j] = Math.fma(value, bRows[row + j], acc[j]);
                    }
                }
            }
            out.put(r * ldOut, acc, 0, cols);
        }
    }

    @Override
    public void sampleHidden(Tile field, boolean withBias, int from, int to, float[] beta, long seed, int particle0,
                             int step, int tag, Tile out) {
        float[] z = new float[h];
        float[] uniforms = new float[h];
        float[] row = new float[h];
        for (int r = from; r < to; r++) {
            field.buffer.get(r * h, z, 0, h);
            RbmDraws.uniforms(seed, particle0 + r, step, tag, uniforms);
            for (int j = 0; j < h; j++) {
                row[j] = RbmDraws.bernoulli(uniforms[j], RbmDraws.logistic(beta[r] * (withBias ? z[j] : z[j] + b[j])));
            }
            out.buffer.put(r * h, row, 0, h);
        }
    }

    @Override
    public void sampleVisible(Tile v, int from, int to, int active, float[] beta, long seed, int particle0, int step,
                              int tag, Tile x) {
        float[] field = new float[active];
        float[] uniforms = new float[active];
        float[] row = new float[active];
        for (int r = from; r < to; r++) {
            v.buffer.get(r * n, field, 0, active);
            RbmDraws.uniforms(seed, particle0 + r, step, tag, uniforms);
            float oneMinusBeta = 1f - beta[r];
            for (int i = 0; i < active; i++) {
                row[i] = RbmDraws.bernoulli(uniforms[i], RbmDraws.logistic(oneMinusBeta * a0[i] + beta[r] * (a[i] + field[i])));
            }
            x.buffer.put(r * n, row, 0, active);
        }
    }

    @Override
    public void anneal(Tile u, Tile x, int from, int to, double fromBeta, double toBeta, boolean draw, long seed,
                       int particle0, int step, int tag, double[] logW, int offset, Tile out) {
        float[] field = new float[h];
        float[] states = new float[n];
        float[] uniforms = new float[h];
        float[] row = new float[h];
        double[] productTo = new double[16];
        double[] productFrom = new double[16];
        double[] positive = new double[16];
        int[] exponentTo = new int[16];
        int[] exponentFrom = new int[16];
        for (int r = from; r < to; r++) {
            u.buffer.get(r * h, field, 0, h);
            x.buffer.get(r * n, states, 0, n);
            if (draw) {
                RbmDraws.uniforms(seed, particle0 + r, step, tag, uniforms);
            }
            java.util.Arrays.fill(productTo, 1.0);
            java.util.Arrays.fill(productFrom, 1.0);
            java.util.Arrays.fill(positive, 0.0);
            java.util.Arrays.fill(exponentTo, 0);
            java.util.Arrays.fill(exponentFrom, 0);
            boolean nan = false;
            for (int j = 0; j < h; j++) {
                int l = j % 16;
                double uj = field[j] + b[j];
                nan |= Double.isNaN(uj);
                double zTo = toBeta * uj;
                productTo[l] = productTo[l] * (1.0 + FastMath.expNeg(-Math.abs(zTo)));
                productFrom[l] = productFrom[l] * (1.0 + FastMath.expNeg(-Math.abs(fromBeta * uj)));
                positive[l] = positive[l] + (uj > 0.0 ? uj : 0.0);
                if ((j + 1) % FastMath.AIS_SPAN == 0) {
                    for (int q = 0; q < 16; q++) {
                        exponentTo[q] += FastMath.exponent(productTo[q]);
                        productTo[q] = FastMath.mantissa(productTo[q]);
                        exponentFrom[q] += FastMath.exponent(productFrom[q]);
                        productFrom[q] = FastMath.mantissa(productFrom[q]);
                    }
                }
                if (draw) {
                    row[j] = RbmDraws.bernoulli(uniforms[j], RbmDraws.annealProbability(zTo));
                }
            }
            if (draw) {
                out.buffer.put(r * h, row, 0, h);
            }
            if (nan) {
                logW[offset + r] = Double.NaN;
                continue;
            }
            double visible = dot16(visibleSlope, states);
            double logTo = FastMath.logProduct16(productTo, exponentTo);
            double logFrom = FastMath.logProduct16(productFrom, exponentFrom);
            logW[offset + r] += (toBeta - fromBeta) * (visible + FastMath.combine16(positive)) + (logTo - logFrom);
        }
    }

    @Override
    public void levels(Tile u, Tile x, int from, int to, double[] betas, int levels, double[] logF, double[] slope,
                       int offset) {
        float[] field = new float[h];
        float[] states = new float[n];
        float[] abs = new float[h];
        float[] abs2 = new float[h];
        double[] positive = new double[16];
        double[] negative = new double[16];
        for (int r = from; r < to; r++) {
            u.buffer.get(r * h, field, 0, h);
            x.buffer.get(r * n, states, 0, n);
            java.util.Arrays.fill(positive, 0.0);
            java.util.Arrays.fill(negative, 0.0);
            boolean nan = false;
            for (int j = 0; j < h; j++) {
                float uj = field[j] + b[j];
                nan |= Float.isNaN(uj);
                abs[j] = Math.abs(uj);
                abs2[j] = abs[j] * FastMath.LOG2E_F;
                positive[j % 16] = positive[j % 16] + (uj > 0f ? (double) uj : 0.0);
                negative[j % 16] = negative[j % 16] + (uj < 0f ? (double) uj : 0.0);
            }
            int cell = offset + r * levels;
            if (nan) {
                java.util.Arrays.fill(logF, cell, cell + levels, Double.NaN);
                java.util.Arrays.fill(slope, cell, cell + levels, Double.NaN);
                continue;
            }
            double sumPositive = FastMath.combine16(positive);
            double sumNegative = FastMath.combine16(negative);
            double base = dot16(a0, states);
            double target = dot16(a, states);
            for (int k = 0; k < levels; k++) {
                double beta = betas[k];
                float betaF = Math.abs((float) beta);
                double product = 1.0;
                double weighted = 0.0;
                float blockProduct = 1f;
                float blockWeighted = 0f;
                int exponent = 0;
                for (int j = 0; j < h; j++) {
                    float t = FastMath.exp2Neg(-(betaF * abs2[j]));
                    float sum = 1f + t;
                    blockProduct = blockProduct * sum;
                    blockWeighted = Math.fma(abs[j], t / sum, blockWeighted);
                    if ((j + 1) % FastMath.LEVEL_BLOCK == 0) {
                        product = product * (double) blockProduct;
                        weighted = weighted + (double) blockWeighted;
                        blockProduct = 1f;
                        blockWeighted = 0f;
                    }
                    if ((j + 1) % FastMath.PRODUCT_SPAN == 0) {
                        exponent += FastMath.exponent(product);
                        product = FastMath.mantissa(product);
                    }
                }
                product = product * (double) blockProduct;
                weighted = weighted + (double) blockWeighted;
                double logP = FastMath.logScaled(product, exponent);
                double maxPart = beta >= 0.0 ? sumPositive : sumNegative;
                logF[cell + k] = (1.0 - beta) * base + beta * target + beta * maxPart + logP;
                slope[cell + k] = target - base + (beta >= 0.0 ? maxPart - weighted : maxPart + weighted);
            }
        }
    }

    /** Σ_i c_i x_i over 16 partials in float64, as the native dot16. */
    private static double dot16(double[] c, float[] x) {
        double[] s = new double[16];
        for (int i = 0; i < c.length; i++) {
            s[i % 16] = s[i % 16] + c[i] * (double) x[i];
        }
        return FastMath.combine16(s);
    }

    /** Σ_i c_i x_i over 16 partials with float coefficients, as the native dotf16. */
    private static double dot16(float[] c, float[] x) {
        double[] s = new double[16];
        for (int i = 0; i < c.length; i++) {
            s[i % 16] = s[i % 16] + (double) c[i] * (double) x[i];
        }
        return FastMath.combine16(s);
    }

    @Override
    public String description() {
        return "Java";
    }

    @Override
    public void close() {
    }
}
