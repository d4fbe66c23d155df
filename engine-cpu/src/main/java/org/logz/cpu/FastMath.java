package org.logz.cpu;

/**
 * The CPU kernels' own arithmetic in Java, operation for operation as {@code kernels-cu/src/main/cuda/fastmath.cuh}
 * and {@code engine-cpu/src/main/native/rbm_cpu.cpp} write it (DESIGN §4 "CPU kernels"): Java never fuses a multiply
 * and an add, and {@link Math#fma} is the one rounding the C code's fma is, so the results are the native kernels'
 * bits. {@link JavaRbmMath} computes with these where the native library is missing; tests compare both.
 */
final class FastMath {
    /** Units per renormalization of a level's product of (1 + t): the product stays below 2^256. */
    static final int PRODUCT_SPAN = 256;
    /** Units per float32 block of a level's product and weighted sum. */
    static final int LEVEL_BLOCK = 16;
    /** Units per renormalization of an AIS step's 16 partial products (256 factors each). */
    static final int AIS_SPAN = 16 * PRODUCT_SPAN;
    /** log2(e) in float32. */
    static final float LOG2E_F = 1.44269504f;

    private static final float C5 = 1.32611021e-03f;
    private static final float C4 = 9.67151485e-03f;
    private static final float C3 = 5.55074625e-02f;
    private static final float C2 = 2.40222424e-01f;
    private static final float C1 = 6.93146944e-01f;
    private static final double LN2_HI = 0x1.62e42fee00000p-1;
    private static final double LN2_LO = 0x1.a39ef35793c76p-33;
    private static final double SQRT2 = 0x1.6a09e667f3bcdp+0;
    private static final double SIXTEEN_OVER_LN2 = 0x1.71547652b82fep+4;
    private static final double LN2_16_HI = 0x1.62e4200000000p-5;
    private static final double LN2_16_LO = 0x1.fdf473de6af28p-26;
    /** 2^(i/16), i = 0 .. 15, correctly rounded. */
    private static final double[] EXP2_SIXTEENTHS = {
        0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
        0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
        0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
        0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};

    private FastMath() {
    }

    /** {@code logz_exp2_neg}: 2^x for x ≤ 0 in float32, taken at -126 below -126 (and for NaN). */
    static float exp2Neg(float x) {
        x = x >= -126f ? x : -126f;
        float n = (float) Math.rint(x);
        float f = x - n;
        float p = C5;
        p = Math.fma(p, f, C4);
        p = Math.fma(p, f, C3);
        p = Math.fma(p, f, C2);
        p = Math.fma(p, f, C1);
        p = Math.fma(p, f, 1f);
        return p * Float.intBitsToFloat(((int) n + 127) << 23);
    }

    /** {@code logz_log_scaled}: log(p) + extra·ln 2 in float64 for finite p ≥ 1. */
    static double logScaled(double p, int extra) {
        long bits = Double.doubleToRawLongBits(p);
        int e = (int) ((bits >> 52) & 0x7ff) - 1023;
        double m = Double.longBitsToDouble((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L);
        if (m > SQRT2) {
            m = m * 0.5;
            e = e + 1;
        }
        double s = (m - 1.0) / (m + 1.0);
        double s2 = s * s;
        double q = 1.0 / 21.0;
        q = q * s2 + 1.0 / 19.0;
        q = q * s2 + 1.0 / 17.0;
        q = q * s2 + 1.0 / 15.0;
        q = q * s2 + 1.0 / 13.0;
        q = q * s2 + 1.0 / 11.0;
        q = q * s2 + 1.0 / 9.0;
        q = q * s2 + 1.0 / 7.0;
        q = q * s2 + 1.0 / 5.0;
        q = q * s2 + 1.0 / 3.0;
        double twoS = s + s;
        double logM = twoS + twoS * (s2 * q);
        double k = e + extra;
        return k * LN2_HI + (k * LN2_LO + logM);
    }

    /** The binary exponent of a normal p ≥ 1 ({@code logz_renormalize}'s increment). */
    static int exponent(double p) {
        return (int) ((Double.doubleToRawLongBits(p) >> 52) & 0x7ff) - 1023;
    }

    /** p scaled into [1, 2) by its exponent ({@code logz_renormalize}'s result). Exact. */
    static double mantissa(double p) {
        return Double.longBitsToDouble((Double.doubleToRawLongBits(p) & 0x000fffffffffffffL) | 0x3ff0000000000000L);
    }

    /** {@code expNegDouble}: e^x in float64 for x ≤ 0, taken at -708 below -708 (and for NaN). */
    static double expNeg(double x) {
        x = x >= -708.0 ? x : -708.0;
        double k = Math.rint(x * SIXTEEN_OVER_LN2);
        double r = Math.fma(k, -LN2_16_HI, x);
        r = Math.fma(k, -LN2_16_LO, r);
        double p = 1.0 / 5040.0;
        p = Math.fma(p, r, 1.0 / 720.0);
        p = Math.fma(p, r, 1.0 / 120.0);
        p = Math.fma(p, r, 1.0 / 24.0);
        p = Math.fma(p, r, 1.0 / 6.0);
        p = Math.fma(p, r, 0.5);
        p = Math.fma(p, r, 1.0);
        p = Math.fma(p, r, 1.0);
        int ki = (int) k;
        return (p * EXP2_SIXTEENTHS[ki & 15]) * Double.longBitsToDouble((long) ((ki >> 4) + 1023) << 52);
    }

    /** {@code combine16}: the 16 partial sums of a row combined in the AVX-512 register-pair order. */
    static double combine16(double[] s) {
        double[] c = new double[8];
        for (int l = 0; l < 8; l++) {
            c[l] = s[l] + s[l + 8];
        }
        double d0 = c[0] + c[4];
        double d1 = c[1] + c[5];
        double d2 = c[2] + c[6];
        double d3 = c[3] + c[7];
        return (d0 + d2) + (d1 + d3);
    }

    /** {@code logProduct16}: log of the product of 16 partial products with their exponents. */
    static double logProduct16(double[] product, int[] exponent) {
        int e = 0;
        double m = 1.0;
        for (int l = 0; l < 16; l++) {
            e += exponent[l] + exponent(product[l]);
            m = m * mantissa(product[l]);
        }
        return logScaled(m, e);
    }
}
