// logz's own float32 2^x (x <= 0) and float64 log (x >= 1), defined operation by operation so that the
// CUDA kernels (rbm_weights.cu logz_levels), the CPU backend's native kernels (engine-cpu/src/main/native,
// which include this header) and its Java fallback (engine-cpu FastMath.java, the same operations by hand)
// produce the same bits: only IEEE-754 round-to-nearest +, -, *, /, fma and exact conversions and
// bit manipulations, no library exp or log (whose last bits differ between libraries), no contraction
// (nvcc --fmad=false, g++ -ffp-contract=off). DESIGN §4 states the error bounds and how they were checked.
//
// Include from host C++ (g++) or device code (nvcc, and the host emulation through cuda_emu.h).
#pragma once

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__) || defined(LOGZ_HOST_EMULATION)
#define LOGZ_FM __device__ __forceinline__
#else
#include <math.h>
#define LOGZ_FM static inline
#endif

LOGZ_FM float logz_bits_to_float(int32_t bits) {
#ifdef __CUDA_ARCH__
    return __int_as_float(bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

LOGZ_FM double logz_bits_to_double(int64_t bits) {
#ifdef __CUDA_ARCH__
    return __longlong_as_double(bits);
#else
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
#endif
}

LOGZ_FM int64_t logz_double_to_bits(double d) {
#ifdef __CUDA_ARCH__
    return __double_as_longlong(d);
#else
    int64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
#endif
}

// A degree-5 polynomial for 2^f on |f| <= 1/2 with constant term 1, fitted for relative error (Chebyshev
// nodes, iteratively reweighted least squares: 9.2e-8 before rounding the coefficients to float32).
#define LOGZ_EXP2_C5 1.32611021e-03f
#define LOGZ_EXP2_C4 9.67151485e-03f
#define LOGZ_EXP2_C3 5.55074625e-02f
#define LOGZ_EXP2_C2 2.40222424e-01f
#define LOGZ_EXP2_C1 6.93146944e-01f

// 2^x in float32 for x <= 0, taken at -126 below -126 (and for NaN): n = rint(x), f = x - n (exact,
// |f| <= 1/2), 2^f by Horner with fma, times 2^n built from its exponent bits (never subnormal). Relative
// error at most 1.7e-7 on [-126, 0] (checked on every one of its 1.12e9 floats by tools/fastmath-check, DESIGN §4).
LOGZ_FM float logz_exp2_neg(float x) {
    x = x >= -126.0f ? x : -126.0f;
    float n = rintf(x);
    float f = x - n;
    float p = LOGZ_EXP2_C5;
    p = fmaf(p, f, LOGZ_EXP2_C4);
    p = fmaf(p, f, LOGZ_EXP2_C3);
    p = fmaf(p, f, LOGZ_EXP2_C2);
    p = fmaf(p, f, LOGZ_EXP2_C1);
    p = fmaf(p, f, 1.0f);
    return p * logz_bits_to_float(((int32_t) n + 127) << 23);
}

// ln 2 = LOGZ_LN2_HI + LOGZ_LN2_LO (fdlibm's split), the high part with 21 trailing zero bits so that
// e·LOGZ_LN2_HI is exact for |e| < 2^21.
#define LOGZ_LN2_HI 0x1.62e42fee00000p-1
#define LOGZ_LN2_LO 0x1.a39ef35793c76p-33
#define LOGZ_SQRT2 0x1.6a09e667f3bcdp+0

// log(p) + extra·ln 2 in float64 for finite p >= 1: p = m·2^e with m in [sqrt(1/2), sqrt(2)), s = (m-1)/(m+1),
// log m = 2s(1 + s²/3 + s⁴/5 + ... + s²⁰/21) (|s| <= 0.1716, so the series' tail is below 2e-19), by Horner
// with separate multiplies and adds. Error below 2 ulp of the result (DESIGN §4).
LOGZ_FM double logz_log_scaled(double p, int extra) {
    int64_t bits = logz_double_to_bits(p);
    int e = (int) ((bits >> 52) & 0x7ff) - 1023;
    double m = logz_bits_to_double((bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);
    if (m > LOGZ_SQRT2) {
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
    double k = (double) (e + extra);
    return k * LOGZ_LN2_HI + (k * LOGZ_LN2_LO + logM);
}

// Splits a running product into [1, 2) and a power of two that logz_log_scaled takes as `extra`: keeps
// products of up to 256 factors in [1, 2] far from overflow. Exact.
LOGZ_FM double logz_renormalize(double p, int* exponent) {
    int64_t bits = logz_double_to_bits(p);
    *exponent += (int) ((bits >> 52) & 0x7ff) - 1023;
    return logz_bits_to_double((bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);
}

// Units per renormalization of a level's product of (1 + t): each factor is at most 2, so the product
// stays below 2^256.
#define LOGZ_PRODUCT_SPAN 256
// Units per float32 block of a level's product and weighted sum, folded into float64 at the block's end.
#define LOGZ_LEVEL_BLOCK 16

// log2(e) rounded to float32.
#define LOGZ_LOG2E_F 1.44269504f

// One ladder level of a binary RBM's tempered density, summed over its hidden units (DESIGN §4, "all
// levels in float32"). For hidden pre-activation u_j (float32, bias included) let a_j = |u_j| and
// a2_j = a_j·log2(e) in float32, and for the level's β (float32) t_j = 2^(-β·a2_j) = e^(-β|u_j|). A level
// accumulates P = Π_j (1 + t_j) and S = Σ_j a_j·t_j/(1 + t_j), units in index order: in float32 over blocks of
// LOGZ_LEVEL_BLOCK units (the product by multiplies, the sum by fma), each block folded into float64 (P
// renormalized every LOGZ_PRODUCT_SPAN units). log P and S give Σ_j softplus(β u_j) =
// β·Σ_j max(u_j, 0) + log P and Σ_j u_j σ(β u_j) = Σ_j max(u_j, 0) - S for β >= 0.
struct logz_level_acc {
    double product;
    double weighted;
    float blockProduct;
    float blockWeighted;
    int exponent;
};

LOGZ_FM void logz_level_begin(logz_level_acc* acc) {
    acc->product = 1.0;
    acc->weighted = 0.0;
    acc->blockProduct = 1.0f;
    acc->blockWeighted = 0.0f;
    acc->exponent = 0;
}

LOGZ_FM void logz_level_fold(logz_level_acc* acc) {
    acc->product = acc->product * (double) acc->blockProduct;
    acc->weighted = acc->weighted + (double) acc->blockWeighted;
    acc->blockProduct = 1.0f;
    acc->blockWeighted = 0.0f;
}

// Adds unit j (0-based, units in order) with a = |u_j| and a2 = a·LOGZ_LOG2E_F.
LOGZ_FM void logz_level_add(logz_level_acc* acc, float a, float a2, float betaF, int j) {
    float t = logz_exp2_neg(-(betaF * a2));
    float s = 1.0f + t;
    acc->blockProduct = acc->blockProduct * s;
    acc->blockWeighted = fmaf(a, t / s, acc->blockWeighted);
    if ((j + 1) % LOGZ_LEVEL_BLOCK == 0) {
        logz_level_fold(acc);
    }
    if ((j + 1) % LOGZ_PRODUCT_SPAN == 0) {
        acc->product = logz_renormalize(acc->product, &acc->exponent);
    }
}

// Folds the last block; then acc->weighted is S and this returns log P.
LOGZ_FM double logz_level_finish(logz_level_acc* acc) {
    logz_level_fold(acc);
    return logz_log_scaled(acc->product, acc->exponent);
}
