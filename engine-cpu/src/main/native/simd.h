// What the CPU RBM kernels' families share (DESIGN §4.1): the instruction set this translation unit is compiled
// for and its micro-kernel shape, per-thread scratch, the 16-partial row sums and, with AVX-512, the register
// helpers. Included by rbm_cpu.cpp only (one translation unit per instruction set).
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "fastmath.cuh"
#include "logz_cpu.h"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace {

#if defined(__AVX512F__)
constexpr int MR = 8;
constexpr int NR = 32;
constexpr int ISA_ID = LOGZ_ISA_AVX512;
#elif defined(__AVX2__)
constexpr int MR = 6;
constexpr int NR = 16;
constexpr int ISA_ID = LOGZ_ISA_AVX2;
#else
constexpr int MR = 4;
constexpr int NR = 16;
constexpr int ISA_ID = LOGZ_ISA_GENERIC;
#endif

// Per-thread scratch of the generic paths.
thread_local std::vector<float> scratchUniforms;
thread_local std::vector<float> scratchA;
thread_local std::vector<float> scratchA2;

float* grow(std::vector<float>& v, size_t size) {
    if (v.size() < size) {
        v.resize(size);
    }
    return v.data();
}

// Σ v_i over 16 partials (i into partial i mod 16), combined in the AVX-512 register-pair order.
double combine16(const double s[16]) {
    double c[8], d[4], e[2];
    for (int l = 0; l < 8; l++) {
        c[l] = s[l] + s[l + 8];
    }
    for (int l = 0; l < 4; l++) {
        d[l] = c[l] + c[l + 4];
    }
    for (int l = 0; l < 2; l++) {
        e[l] = d[l] + d[l + 2];
    }
    return e[0] + e[1];
}

#if defined(__AVX512F__)
inline __mmask16 lanesBelow(int left) {
    return left >= 16 ? (__mmask16) 0xFFFF : left <= 0 ? (__mmask16) 0 : (__mmask16) ((1u << left) - 1);
}

// Splits 8 running products into [1, 2) (returned) and their exponents (added to *exponent).
inline __m512d renormalize8(__m512d p, __m512d* exponent) {
    *exponent = _mm512_add_pd(*exponent, _mm512_getexp_pd(p));
    return _mm512_getmant_pd(p, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);
}

inline __m512 joinFloats(__m512d lo, __m512d hi) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
}

inline __m512d lowDoubles(__m512 v) {
    return _mm512_cvtps_pd(_mm512_castps512_ps256(v));
}

inline __m512d highDoubles(__m512 v) {
    return _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
}

// combine16 of the partials in two registers (lanes 0-7 and 8-15).
double combine16x(__m512d s0, __m512d s1) {
    alignas(64) double s[16];
    _mm512_store_pd(s, s0);
    _mm512_store_pd(s + 8, s1);
    return combine16(s);
}
#endif  // __AVX512F__

}  // namespace
