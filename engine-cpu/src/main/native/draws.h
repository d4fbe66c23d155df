// The draws of a Gibbs sweep (DESIGN §4.1): Philox uniforms, the Java logistic approximated closely enough to decide
// every draw outside a margin of 2^-18 p, the rest listed for the Java expression; generic and 16 lanes at a time.
#pragma once

#include "simd.h"

// kernels-cu's Philox (philox.cuh) is device code: on the host its qualifiers are plain inline functions and
// __umulhi is the high word of the 64-bit product, so the CPU kernels share its one definition.
#define __device__
#define __forceinline__ inline
static inline unsigned int __umulhi(unsigned int a, unsigned int b) {
    return (unsigned int) (((unsigned long long) a * b) >> 32);
}
#include "philox.cuh"

namespace {

// The multipliers and key increments of Philox4x32-10 for the 16-lane form below (philox.cuh has the scalar one).
constexpr uint32_t PHILOX_M0 = 0xD2511F53u;
constexpr uint32_t PHILOX_M1 = 0xCD9E8D57u;
constexpr uint32_t PHILOX_W0 = 0x9E3779B9u;
constexpr uint32_t PHILOX_W1 = 0xBB67AE85u;

// The uniforms of one particle's units 0 .. units-1 at (step, tag): unit k is word k % 4 of block k / 4.
void uniforms(uint64_t seed, int particle, int step, int tag, int units, float* out) {
    uint32_t k0 = (uint32_t) seed, k1 = (uint32_t) (seed >> 32);
    int blocks = (units + 3) / 4;
    for (int bl = 0; bl < blocks; bl++) {
        logz_philox_out w = logz_philox((uint32_t) bl, (uint32_t) particle, (uint32_t) step, (uint32_t) tag, k0, k1);
        for (int q = 0; q < 4; q++) {
            out[4 * bl + q] = logz_uniform(w.w[q]);
        }
    }
}

// e^x in float32 for x in [-87, 87] (callers clamp), within 4e-7 relative: Cody-Waite reduction by ln 2,
// degree-6 Taylor polynomial, exponent bits. Only ever compared with a margin (see the file comment).
inline float expApprox(float x) {
    float n = rintf(x * 1.44269504f);
    float r = fmaf(n, -0.693359375f, x);
    r = fmaf(n, 2.12194440e-4f, r);
    float p = 1.0f / 720.0f;
    p = fmaf(p, r, 1.0f / 120.0f);
    p = fmaf(p, r, 1.0f / 24.0f);
    p = fmaf(p, r, 1.0f / 6.0f);
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r, 1.0f);
    p = fmaf(p, r, 1.0f);
    return p * logz_bits_to_float(((int32_t) n + 127) << 23);
}

// p~ of the Java logistic 1f / (1f + (float) Math.exp(-z)); NaN for NaN z.
inline float logisticApprox(float z) {
    float x = -z;
    x = x < -87.0f ? -87.0f : (x > 87.0f ? 87.0f : x);
    return 1.0f / (1.0f + expApprox(x));
}

constexpr float MARGIN = 0x1.0p-18f;
constexpr float MARGIN_FLOOR = 0x1.0p-140f;

// 1 when u < p, 0 when u >= p, for the exact p that p~ approximates; -1 when p~ cannot tell (or is NaN).
inline int decide(float u, float pApprox) {
    if (!(fabsf(u - pApprox) > MARGIN * pApprox + MARGIN_FLOOR)) {
        return -1;
    }
    return u < pApprox ? 1 : 0;
}

// decide() for the Java logistic of z; NaN z is always ambiguous (the Java expression then decides).
inline int decideLogistic(float u, float z) {
    return isnan(z) ? -1 : decide(u, logisticApprox(z));
}

// Records ambiguous index `index`; returns the new count, or LOGZ_AMBIGUOUS_OVERFLOW past capacity.
inline int note(int* ambiguous, int count, int capacity, int index) {
    if (count < 0) {
        return count;
    }
    if (count >= capacity) {
        return LOGZ_AMBIGUOUS_OVERFLOW;
    }
    ambiguous[count] = index;
    return count + 1;
}

// Hidden draws of one row: z_j = β (field_j + b_j) (or β field_j when the field has its bias).
int hiddenRowGeneric(const logz_rbm* m, const float* field, int withBias, float beta, uint64_t seed, int particle,
                     int step, int tag, float* out, int* ambiguous, int count, int capacity, int rowIndex) {
    int h = m->h;
    float* u = grow(scratchUniforms, (size_t) h + 4);
    uniforms(seed, particle, step, tag, h, u);
    for (int j = 0; j < h; j++) {
        float z = beta * (withBias ? field[j] : field[j] + m->b[j]);
        int d = decideLogistic(u[j], z);
        out[j] = d == 1 ? 1.0f : 0.0f;
        if (d < 0) {
            count = note(ambiguous, count, capacity, rowIndex * h + j);
        }
    }
    return count;
}

// Visible draws of units 0 .. active-1: z_i = (1 - β) a0_i + β (a_i + v_i).
int visibleRowGeneric(const logz_rbm* m, const float* v, int active, float beta, uint64_t seed, int particle,
                      int step, int tag, float* x, int* ambiguous, int count, int capacity, int rowIndex) {
    float* u = grow(scratchUniforms, (size_t) active + 4);
    uniforms(seed, particle, step, tag, active, u);
    float oneMinusBeta = 1.0f - beta;
    for (int i = 0; i < active; i++) {
        float z = oneMinusBeta * m->a0[i] + beta * (m->a[i] + v[i]);
        int d = decideLogistic(u[i], z);
        x[i] = d == 1 ? 1.0f : 0.0f;
        if (d < 0) {
            count = note(ambiguous, count, capacity, rowIndex * m->n + i);
        }
    }
    return count;
}

#if defined(__AVX512F__)
// 16 Philox blocks (c0 + lane, c1, c2, c3): out[q] lane l is word q of block c0 + l.
inline void philox16(__m512i c0, uint32_t c1s, uint32_t c2s, uint32_t c3s, uint32_t k0, uint32_t k1, __m512i out[4]) {
    const __m512i m0 = _mm512_set1_epi64(PHILOX_M0);
    const __m512i m1 = _mm512_set1_epi64(PHILOX_M1);
    __m512i c1 = _mm512_set1_epi32((int) c1s), c2 = _mm512_set1_epi32((int) c2s), c3 = _mm512_set1_epi32((int) c3s);
    for (int round = 0; round < 10; round++) {
        __m512i e0 = _mm512_mul_epu32(c0, m0);
        __m512i o0 = _mm512_mul_epu32(_mm512_srli_epi64(c0, 32), m0);
        __m512i e1 = _mm512_mul_epu32(c2, m1);
        __m512i o1 = _mm512_mul_epu32(_mm512_srli_epi64(c2, 32), m1);
        __m512i lo0 = _mm512_mask_blend_epi32(0xAAAA, e0, _mm512_slli_epi64(o0, 32));
        __m512i hi0 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e0, 32), o0);
        __m512i lo1 = _mm512_mask_blend_epi32(0xAAAA, e1, _mm512_slli_epi64(o1, 32));
        __m512i hi1 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e1, 32), o1);
        __m512i key0 = _mm512_set1_epi32((int) k0), key1 = _mm512_set1_epi32((int) k1);
        c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c1), key0);
        c1 = lo1;
        c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), key1);
        c3 = lo0;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

// The 64 uniforms of units 64g .. 64g + 63 in unit order, u[m] holding units 64g + 16m + (0..15).
inline void uniforms64(uint64_t seed, int particle, int step, int tag, int g, __m512 u[4]) {
    __m512i words[4];
    __m512i c0 = _mm512_add_epi32(_mm512_set1_epi32(16 * g), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                                                13, 14, 15));
    philox16(c0, (uint32_t) particle, (uint32_t) step, (uint32_t) tag, (uint32_t) seed, (uint32_t) (seed >> 32), words);
    // unit 64g + 16m + i is word i % 4 of block 16g + 4m + i / 4: pair words 0/1 and 2/3 by block, then pairs
    const __m512i pairLo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i pairHi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const __m512i quadLo = _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
    const __m512i quadHi = _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
    __m512i p01Lo = _mm512_permutex2var_epi32(words[0], pairLo, words[1]);
    __m512i p01Hi = _mm512_permutex2var_epi32(words[0], pairHi, words[1]);
    __m512i p23Lo = _mm512_permutex2var_epi32(words[2], pairLo, words[3]);
    __m512i p23Hi = _mm512_permutex2var_epi32(words[2], pairHi, words[3]);
    __m512i ordered[4] = {_mm512_permutex2var_epi32(p01Lo, quadLo, p23Lo), _mm512_permutex2var_epi32(p01Lo, quadHi, p23Lo),
                          _mm512_permutex2var_epi32(p01Hi, quadLo, p23Hi), _mm512_permutex2var_epi32(p01Hi, quadHi, p23Hi)};
    const __m512 half = _mm512_set1_ps(0.5f), scale = _mm512_set1_ps(0x1.0p-23f);
    for (int q = 0; q < 4; q++) {
        u[q] = _mm512_mul_ps(_mm512_add_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(ordered[q], 9)), half), scale);
    }
}

inline __m512 expApprox16(__m512 x) {
    __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fmadd_ps(n, _mm512_set1_ps(-0.693359375f), x);
    r = _mm512_fmadd_ps(n, _mm512_set1_ps(2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.0f / 720.0f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    __m512i bits = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
    return _mm512_mul_ps(p, _mm512_castsi512_ps(bits));
}

// Decides 16 draws u < p for the exact p that pApprox approximates: *out gets 1 or 0 (0 where ambiguous); returns
// the ambiguous lanes of `valid` (NaN z included).
inline __mmask16 decideP16(__m512 u, __m512 pApprox, __m512 z, __mmask16 valid, __m512* out) {
    __m512 gap = _mm512_abs_ps(_mm512_sub_ps(u, pApprox));
    __m512 margin = _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(MARGIN), pApprox), _mm512_set1_ps(MARGIN_FLOOR));
    __mmask16 certain = _mm512_cmp_ps_mask(gap, margin, _CMP_GT_OQ) & (__mmask16) ~_mm512_cmp_ps_mask(z, z, _CMP_UNORD_Q);
    __mmask16 on = _mm512_cmp_ps_mask(u, pApprox, _CMP_LT_OQ) & certain;
    *out = _mm512_maskz_mov_ps(on, _mm512_set1_ps(1.0f));
    return valid & (__mmask16) ~certain;
}

// decideP16 for the Java logistic of z.
inline __mmask16 decideLogistic16(__m512 u, __m512 z, __mmask16 valid, __m512* out) {
    __m512 x = _mm512_min_ps(_mm512_max_ps(_mm512_sub_ps(_mm512_setzero_ps(), z), _mm512_set1_ps(-87.0f)),
                             _mm512_set1_ps(87.0f));
    __m512 p = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), expApprox16(x)));
    return decideP16(u, p, z, valid, out);
}

int noteMask(__mmask16 mask, int base, int* ambiguous, int count, int capacity) {
    while (mask != 0) {
        int lane = __builtin_ctz(mask);
        count = note(ambiguous, count, capacity, base + lane);
        mask = (__mmask16) (mask & (mask - 1));
    }
    return count;
}

int hiddenRow512(const logz_rbm* m, const float* field, int withBias, float beta, uint64_t seed, int particle, int step,
                 int tag, float* out, int* ambiguous, int count, int capacity, int rowIndex) {
    int h = m->h;
    __m512 betaV = _mm512_set1_ps(beta);
    for (int g = 0; g * 64 < h; g++) {
        __m512 u[4];
        uniforms64(seed, particle, step, tag, g, u);
        for (int q = 0; q < 4; q++) {
            int base = 64 * g + 16 * q;
            __mmask16 valid = lanesBelow(h - base);
            if (valid == 0) {
                break;
            }
            __m512 f = _mm512_maskz_loadu_ps(valid, field + base);
            if (!withBias) {
                f = _mm512_add_ps(f, _mm512_maskz_loadu_ps(valid, m->b + base));
            }
            __m512 z = _mm512_mul_ps(betaV, f);
            __m512 o;
            __mmask16 amb = decideLogistic16(u[q], z, valid, &o);
            _mm512_mask_storeu_ps(out + base, valid, o);
            if (amb != 0) {
                count = noteMask(amb, rowIndex * h + base, ambiguous, count, capacity);
            }
        }
    }
    return count;
}

int visibleRow512(const logz_rbm* m, const float* v, int active, float beta, uint64_t seed, int particle, int step,
                  int tag, float* x, int* ambiguous, int count, int capacity, int rowIndex) {
    __m512 betaV = _mm512_set1_ps(beta);
    __m512 oneMinusBeta = _mm512_set1_ps(1.0f - beta);
    for (int g = 0; g * 64 < active; g++) {
        __m512 u[4];
        uniforms64(seed, particle, step, tag, g, u);
        for (int q = 0; q < 4; q++) {
            int base = 64 * g + 16 * q;
            __mmask16 valid = lanesBelow(active - base);
            if (valid == 0) {
                break;
            }
            __m512 sum = _mm512_add_ps(_mm512_maskz_loadu_ps(valid, m->a + base), _mm512_maskz_loadu_ps(valid, v + base));
            __m512 z = _mm512_add_ps(_mm512_mul_ps(oneMinusBeta, _mm512_maskz_loadu_ps(valid, m->a0 + base)),
                                     _mm512_mul_ps(betaV, sum));
            __m512 o;
            __mmask16 amb = decideLogistic16(u[q], z, valid, &o);
            _mm512_mask_storeu_ps(x + base, valid, o);
            if (amb != 0) {
                count = noteMask(amb, rowIndex * m->n + base, ambiguous, count, capacity);
            }
        }
    }
    return count;
}
#endif  // __AVX512F__

}  // namespace
