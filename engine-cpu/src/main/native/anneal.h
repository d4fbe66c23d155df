// An AIS step's weight (DESIGN §4.1): (to - from)(Σ (a - a0) x + Σ max(u, 0)) + log Π (1 + e^{-to|u|})
// - log Π (1 + e^{-from|u|}) over 16 partial products, and the step's hidden draws from its float64 probability.
#pragma once

#include "simd.h"
#include "draws.h"

namespace {

// Σ_i coefficient_i · x_i in float64 (x binary, so every product is exact) over 16 partials.
double dot16(const double* coefficient, const float* x, int n) {
    double s[16] = {};
    for (int i = 0; i < n; i++) {
        s[i % 16] = s[i % 16] + coefficient[i] * (double) x[i];
    }
    return combine16(s);
}

// 2^(i/16), i = 0 .. 15, correctly rounded.
alignas(64) const double EXP2_SIXTEENTHS[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
// 16/ln 2, and ln 2/16 split so that k·LN2_16_HI is exact for |k| < 2^21.
constexpr double SIXTEEN_OVER_LN2 = 0x1.71547652b82fep+4;
constexpr double LN2_16_HI = 0x1.62e4200000000p-5;
constexpr double LN2_16_LO = 0x1.fdf473de6af28p-26;

// e^x in float64 for x <= 0, taken at -708 below -708 (and for NaN): k = rint(16x/ln 2) = 16m + i, r = x - k·ln 2/16
// (|r| <= ln 2/32, Cody-Waite), e^r by a degree-7 Taylor polynomial (truncation below 1.2e-18) with fma, times
// 2^(i/16) from a table, times 2^m from its exponent bits (never subnormal: e^-708 is normal). Within 3 ulp.
inline double expNegDouble(double x) {
    x = x >= -708.0 ? x : -708.0;
    double k = rint(x * SIXTEEN_OVER_LN2);
    double r = fma(k, -LN2_16_HI, x);
    r = fma(k, -LN2_16_LO, r);
    double p = 1.0 / 5040.0;
    p = fma(p, r, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    int ki = (int) k;
    return (p * EXP2_SIXTEENTHS[ki & 15]) * logz_bits_to_double((int64_t) ((ki >> 4) + 1023) << 52);
}

// log Π of 16 partial products with exponents: each renormalized into [1, 2), mantissas multiplied in order.
double logProduct16(const double product[16], const int exponent[16]) {
    int e = 0;
    double m = 1.0;
    for (int l = 0; l < 16; l++) {
        e += exponent[l];
        m = m * logz_renormalize(product[l], &e);
    }
    return logz_log_scaled(m, e);
}

// Units per renormalization of the 16 partial products of an AIS step (256 factors each).
constexpr int AIS_SPAN = 16 * LOGZ_PRODUCT_SPAN;

// One AIS step of one row: logW += (to - from)(a - a0)ᵀx + Σ_j [softplus(to u_j) - softplus(from u_j)] with
// u_j = (double) (float) (U_j + b_j); with draw, h_j ~ σ(to u_j) from the float64 expression of the Java path.
int annealRowGeneric(const logz_rbm* m, const float* uRow, const float* x, double from, double to, int draw,
                     uint64_t seed, int particle, int step, int tag, double* logW, float* out, int* ambiguous,
                     int count, int capacity, int rowIndex) {
    int h = m->h;
    float* uniform = nullptr;
    if (draw) {
        uniform = grow(scratchUniforms, (size_t) h + 4);
        uniforms(seed, particle, step, tag, h, uniform);
    }
    double productTo[16], productFrom[16], positive[16] = {};
    int exponentTo[16] = {}, exponentFrom[16] = {};
    for (int l = 0; l < 16; l++) {
        productTo[l] = 1.0;
        productFrom[l] = 1.0;
    }
    bool nan = false;
    for (int j = 0; j < h; j++) {
        int l = j % 16;
        double u = (double) (uRow[j] + m->b[j]);
        nan = nan || isnan(u);
        double zTo = to * u;
        double tTo = expNegDouble(-fabs(zTo));
        double tFrom = expNegDouble(-fabs(from * u));
        productTo[l] = productTo[l] * (1.0 + tTo);
        productFrom[l] = productFrom[l] * (1.0 + tFrom);
        positive[l] = positive[l] + (u > 0.0 ? u : 0.0);
        if ((j + 1) % AIS_SPAN == 0) {
            for (int q = 0; q < 16; q++) {
                productTo[q] = logz_renormalize(productTo[q], &exponentTo[q]);
                productFrom[q] = logz_renormalize(productFrom[q], &exponentFrom[q]);
            }
        }
        if (draw) {
            float t = (float) tTo;
            float p = zTo >= 0.0 ? 1.0f / (1.0f + t) : t / (1.0f + t);
            int d = isnan(zTo) ? -1 : decide(uniform[j], p);
            out[j] = d == 1 ? 1.0f : 0.0f;
            if (d < 0) {
                count = note(ambiguous, count, capacity, rowIndex * h + j);
            }
        }
    }
    if (nan) {
        *logW = NAN;
        return count;
    }
    double visible = dot16(m->visibleSlope, x, m->n);
    double logTo = logProduct16(productTo, exponentTo);
    double logFrom = logProduct16(productFrom, exponentFrom);
    *logW += (to - from) * (visible + combine16(positive)) + (logTo - logFrom);
    return count;
}

#if defined(__AVX512F__)
// expNegDouble on 8 lanes. max_pd(x, -708) is -708 for NaN x, as the scalar form; rint comes from adding and
// subtracting 1.5·2^52, whose low bits are also k; the result is never subnormal, so adding m to the exponent bits
// is the scalar form's exact multiply by 2^m.
inline __m512d expNeg8(__m512d x) {
    const __m512d shifter = _mm512_set1_pd(0x1.8p52);
    x = _mm512_max_pd(x, _mm512_set1_pd(-708.0));
    __m512d shifted = _mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(SIXTEEN_OVER_LN2)), shifter);
    __m512d k = _mm512_sub_pd(shifted, shifter);
    __m512d r = _mm512_fmadd_pd(k, _mm512_set1_pd(-LN2_16_HI), x);
    r = _mm512_fmadd_pd(k, _mm512_set1_pd(-LN2_16_LO), r);
    __m512d p = _mm512_set1_pd(1.0 / 5040.0);
    const double coefficients[] = {1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0};
    for (double c : coefficients) {
        p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(c));
    }
    __m512i ki = _mm512_sub_epi64(_mm512_castpd_si512(shifted), _mm512_castpd_si512(shifter));
    __m512d sixteenth = _mm512_permutex2var_pd(_mm512_load_pd(EXP2_SIXTEENTHS), _mm512_and_si512(ki, _mm512_set1_epi64(15)),
                                               _mm512_load_pd(EXP2_SIXTEENTHS + 8));
    __m512i exponent = _mm512_slli_epi64(_mm512_srai_epi64(ki, 4), 52);
    return _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(_mm512_mul_pd(p, sixteenth)), exponent));
}

// dot16 with AVX-512: the 16 partials are the lanes of two registers.
double dot16x(const double* coefficient, const float* x, int n) {
    __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
    for (int i = 0; i < n; i += 16) {
        __mmask16 valid = lanesBelow(n - i);
        __m512 xv = _mm512_maskz_loadu_ps(valid, x + i);
        s0 = _mm512_add_pd(s0, _mm512_mul_pd(_mm512_maskz_loadu_pd((__mmask8) valid, coefficient + i), lowDoubles(xv)));
        s1 = _mm512_add_pd(s1, _mm512_mul_pd(_mm512_maskz_loadu_pd((__mmask8) (valid >> 8), coefficient + i + 8),
                                             highDoubles(xv)));
    }
    return combine16x(s0, s1);
}

int annealRow512(const logz_rbm* m, const float* uRow, const float* x, double from, double to, int draw, uint64_t seed,
                 int particle, int step, int tag, double* logW, float* out, int* ambiguous, int count, int capacity,
                 int rowIndex) {
    int h = m->h;
    const __m512d one = _mm512_set1_pd(1.0);
    const __m512d zero = _mm512_setzero_pd();
    const __m512d toV = _mm512_set1_pd(to), fromV = _mm512_set1_pd(from);
    __m512d productTo[2] = {one, one}, productFrom[2] = {one, one}, positive[2] = {zero, zero};
    __m512d exponentTo[2] = {zero, zero}, exponentFrom[2] = {zero, zero};
    __mmask16 nan = 0;
    __m512 u[4] = {};
    for (int j = 0; j < h; j += 16) {
        int q = (j / 16) % 4;
        if (draw && q == 0) {
            uniforms64(seed, particle, step, tag, j / 64, u);
        }
        __mmask16 valid = lanesBelow(h - j);
        __m512 field = _mm512_add_ps(_mm512_maskz_loadu_ps(valid, uRow + j), _mm512_maskz_loadu_ps(valid, m->b + j));
        nan |= _mm512_cmp_ps_mask(field, field, _CMP_UNORD_Q);
        __m512d tTo[2], zTo[2];
        __mmask8 geZero[2];
        for (int half = 0; half < 2; half++) {
            __mmask8 lanes = (__mmask8) (valid >> (8 * half));
            __m512d uv = half == 0 ? lowDoubles(field) : highDoubles(field);
            zTo[half] = _mm512_mul_pd(toV, uv);
            __m512d zFrom = _mm512_mul_pd(fromV, uv);
            tTo[half] = expNeg8(_mm512_sub_pd(zero, _mm512_abs_pd(zTo[half])));
            __m512d tFrom = expNeg8(_mm512_sub_pd(zero, _mm512_abs_pd(zFrom)));
            productTo[half] = _mm512_mask_mul_pd(productTo[half], lanes, productTo[half], _mm512_add_pd(one, tTo[half]));
            productFrom[half] = _mm512_mask_mul_pd(productFrom[half], lanes, productFrom[half], _mm512_add_pd(one, tFrom));
            positive[half] = _mm512_add_pd(positive[half], _mm512_max_pd(uv, zero));
            geZero[half] = _mm512_cmp_pd_mask(zTo[half], zero, _CMP_GE_OQ);
        }
        if ((j + 16) % AIS_SPAN == 0) {
            for (int half = 0; half < 2; half++) {
                productTo[half] = renormalize8(productTo[half], &exponentTo[half]);
                productFrom[half] = renormalize8(productFrom[half], &exponentFrom[half]);
            }
        }
        if (draw) {
            __m512 t = joinFloats(tTo[0], tTo[1]);
            __m512 s = _mm512_add_ps(_mm512_set1_ps(1.0f), t);
            __mmask16 ge = (__mmask16) (geZero[0] | ((unsigned) geZero[1] << 8));
            // one reciprocal for both forms: p~ is compared with a margin, so one more rounding is harmless
            __m512 inverse = _mm512_div_ps(_mm512_set1_ps(1.0f), s);
            __m512 p = _mm512_mask_blend_ps(ge, _mm512_mul_ps(t, inverse), inverse);
            __m512 o;
            __mmask16 amb = decideP16(u[q], p, joinFloats(zTo[0], zTo[1]), valid, &o);
            _mm512_mask_storeu_ps(out + j, valid, o);
            if (amb != 0) {
                count = noteMask(amb, rowIndex * h + j, ambiguous, count, capacity);
            }
        }
    }
    if (nan != 0) {
        *logW = NAN;
        return count;
    }
    alignas(64) double pTo[16], pFrom[16], eTo[16], eFrom[16], pos[16];
    _mm512_store_pd(pTo, productTo[0]);
    _mm512_store_pd(pTo + 8, productTo[1]);
    _mm512_store_pd(pFrom, productFrom[0]);
    _mm512_store_pd(pFrom + 8, productFrom[1]);
    _mm512_store_pd(eTo, exponentTo[0]);
    _mm512_store_pd(eTo + 8, exponentTo[1]);
    _mm512_store_pd(eFrom, exponentFrom[0]);
    _mm512_store_pd(eFrom + 8, exponentFrom[1]);
    _mm512_store_pd(pos, positive[0]);
    _mm512_store_pd(pos + 8, positive[1]);
    int expTo[16], expFrom[16];
    for (int l = 0; l < 16; l++) {
        expTo[l] = (int) eTo[l];
        expFrom[l] = (int) eFrom[l];
    }
    double visible = dot16x(m->visibleSlope, x, m->n);
    double logTo = logProduct16(pTo, expTo);
    double logFrom = logProduct16(pFrom, expFrom);
    *logW += (to - from) * (visible + combine16(pos)) + (logTo - logFrom);
    return count;
}
#endif  // __AVX512F__

}  // namespace
