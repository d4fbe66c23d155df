// Tempered sampling's all-level log densities and slopes in float32 with float64 sums (DESIGN §4.1, fastmath.cuh's
// logz_level_acc): generic, level by level, and 16 (row, level) cells at a time.
#pragma once

#include "simd.h"

namespace {

// Σ_i a_i · x_i with float a (products exact in float64).
double dotf16(const float* a, const float* x, int n) {
    double s[16] = {};
    for (int i = 0; i < n; i++) {
        s[i % 16] = s[i % 16] + (double) a[i] * (double) x[i];
    }
    return combine16(s);
}

// What every level of one row shares: a_j = |u_j| and a2_j = a_j·log2(e) with u_j = U_j + b_j in float32, the
// sums of the positive and negative u_j, and the visible dot products a0ᵀx and aᵀx.
struct LevelRow {
    const float* a;
    const float* a2;
    double positive;
    double negative;
    double base;
    double target;
};

// Fills row, its a and a2 in the arrays given (h floats each); false when some u_j is NaN.
bool levelRow(const logz_rbm* m, const float* uRow, const float* x, float* a, float* a2, LevelRow* row) {
    int h = m->h;
    double positive[16] = {}, negative[16] = {};
    bool nan = false;
    for (int j = 0; j < h; j++) {
        float u = uRow[j] + m->b[j];
        nan = nan || isnan(u);
        a[j] = fabsf(u);
        a2[j] = a[j] * LOGZ_LOG2E_F;
        positive[j % 16] = positive[j % 16] + (u > 0.0f ? (double) u : 0.0);
        negative[j % 16] = negative[j % 16] + (u < 0.0f ? (double) u : 0.0);
    }
    row->a = a;
    row->a2 = a2;
    row->positive = combine16(positive);
    row->negative = combine16(negative);
    row->base = dotf16(m->a0, x, m->n);
    row->target = dotf16(m->a, x, m->n);
    return !nan;
}

// logF = (1 - β) a0ᵀx + β aᵀx + Σ_j softplus(β u_j) and its β-derivative from a level's log P and weighted sum:
// Σ_j softplus(β u_j) = β Σ_j max(u_j, 0) + log P and Σ_j u_j σ(β u_j) = Σ_j max(u_j, 0) - S for β >= 0
// (min and + S for β < 0).
inline void levelValues(const LevelRow& row, double beta, double logP, double weighted, double* logF, double* slope) {
    double maxPart = beta >= 0.0 ? row.positive : row.negative;
    *logF = (1.0 - beta) * row.base + beta * row.target + beta * maxPart + logP;
    *slope = row.target - row.base + (beta >= 0.0 ? maxPart - weighted : maxPart + weighted);
}

void levelsNaN(int levels, double* logF, double* slope) {
    for (int k = 0; k < levels; k++) {
        logF[k] = NAN;
        slope[k] = NAN;
    }
}

// Every level of one row through logz_level_acc (fastmath.cuh), units in order.
void levelsRowGeneric(const logz_rbm* m, const float* uRow, const float* x, const double* betas, int levels,
                      double* logF, double* slope) {
    LevelRow row;
    if (!levelRow(m, uRow, x, grow(scratchA, (size_t) m->h), grow(scratchA2, (size_t) m->h), &row)) {
        levelsNaN(levels, logF, slope);
        return;
    }
    for (int k = 0; k < levels; k++) {
        float betaF = fabsf((float) betas[k]);
        logz_level_acc acc;
        logz_level_begin(&acc);
        for (int j = 0; j < m->h; j++) {
            logz_level_add(&acc, row.a[j], row.a2[j], betaF, j);
        }
        double logP = logz_level_finish(&acc);
        levelValues(row, betas[k], logP, acc.weighted, logF + k, slope + k);
    }
}

#if defined(__AVX512F__)
// dotf16 with AVX-512.
double dotf16x(const float* a, const float* x, int n) {
    __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
    for (int i = 0; i < n; i += 16) {
        __mmask16 valid = lanesBelow(n - i);
        __m512 av = _mm512_maskz_loadu_ps(valid, a + i);
        __m512 xv = _mm512_maskz_loadu_ps(valid, x + i);
        s0 = _mm512_add_pd(s0, _mm512_mul_pd(lowDoubles(av), lowDoubles(xv)));
        s1 = _mm512_add_pd(s1, _mm512_mul_pd(highDoubles(av), highDoubles(xv)));
    }
    return combine16x(s0, s1);
}

// levelRow with AVX-512.
bool levelRow512(const logz_rbm* m, const float* uRow, const float* x, float* a, float* a2, LevelRow* row) {
    int h = m->h;
    const __m512 zero = _mm512_setzero_ps();
    __m512d positive[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    __m512d negative[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    __mmask16 nan = 0;
    for (int j = 0; j < h; j += 16) {
        __mmask16 valid = lanesBelow(h - j);
        __m512 u = _mm512_add_ps(_mm512_maskz_loadu_ps(valid, uRow + j), _mm512_maskz_loadu_ps(valid, m->b + j));
        nan |= _mm512_cmp_ps_mask(u, u, _CMP_UNORD_Q);
        __m512 abs = _mm512_abs_ps(u);
        _mm512_mask_storeu_ps(a + j, valid, abs);
        _mm512_mask_storeu_ps(a2 + j, valid, _mm512_mul_ps(abs, _mm512_set1_ps(LOGZ_LOG2E_F)));
        __m512 up = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(u, zero, _CMP_GT_OQ), u);
        __m512 down = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(u, zero, _CMP_LT_OQ), u);
        positive[0] = _mm512_add_pd(positive[0], lowDoubles(up));
        positive[1] = _mm512_add_pd(positive[1], highDoubles(up));
        negative[0] = _mm512_add_pd(negative[0], lowDoubles(down));
        negative[1] = _mm512_add_pd(negative[1], highDoubles(down));
    }
    row->a = a;
    row->a2 = a2;
    row->positive = combine16x(positive[0], positive[1]);
    row->negative = combine16x(negative[0], negative[1]);
    row->base = dotf16x(m->a0, x, m->n);
    row->target = dotf16x(m->a, x, m->n);
    return nan == 0;
}

// logz_exp2_neg on 16 lanes. max_ps(x, -126) is -126 for NaN x, as the scalar form; rint(x) comes from adding and
// subtracting 1.5·2^23 (exact, round half to even as rintf), whose low bits are also n; p·2^n is never subnormal
// here (p >= 1 when n = -126), so adding n to p's exponent bits is the scalar form's exact multiply.
inline __m512 exp2Neg16(__m512 x) {
    const __m512 shifter = _mm512_set1_ps(0x1.8p23f);
    x = _mm512_max_ps(x, _mm512_set1_ps(-126.0f));
    __m512 shifted = _mm512_add_ps(x, shifter);
    __m512 f = _mm512_sub_ps(x, _mm512_sub_ps(shifted, shifter));
    __m512 p = _mm512_set1_ps(LOGZ_EXP2_C5);
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(LOGZ_EXP2_C4));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(LOGZ_EXP2_C3));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(LOGZ_EXP2_C2));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(LOGZ_EXP2_C1));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0f));
    __m512i exponent = _mm512_slli_epi32(_mm512_castps_si512(shifted), 23);
    return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(p), exponent));
}

// logz_log_scaled on 8 lanes, the exponent to add as a double.
inline __m512d logScaled8(__m512d p, __m512d extra) {
    __m512d e = _mm512_getexp_pd(p);
    __m512d m = _mm512_getmant_pd(p, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);
    __mmask8 big = _mm512_cmp_pd_mask(m, _mm512_set1_pd(LOGZ_SQRT2), _CMP_GT_OQ);
    m = _mm512_mask_mul_pd(m, big, m, _mm512_set1_pd(0.5));
    e = _mm512_mask_add_pd(e, big, e, _mm512_set1_pd(1.0));
    const __m512d one = _mm512_set1_pd(1.0);
    __m512d s = _mm512_div_pd(_mm512_sub_pd(m, one), _mm512_add_pd(m, one));
    __m512d s2 = _mm512_mul_pd(s, s);
    __m512d q = _mm512_set1_pd(1.0 / 21.0);
    const double inverses[] = {1.0 / 19.0, 1.0 / 17.0, 1.0 / 15.0, 1.0 / 13.0, 1.0 / 11.0, 1.0 / 9.0, 1.0 / 7.0, 1.0 / 5.0,
                               1.0 / 3.0};
    for (double c : inverses) {
        q = _mm512_add_pd(_mm512_mul_pd(q, s2), _mm512_set1_pd(c));
    }
    __m512d twoS = _mm512_add_pd(s, s);
    __m512d logM = _mm512_add_pd(twoS, _mm512_mul_pd(twoS, _mm512_mul_pd(s2, q)));
    __m512d k = _mm512_add_pd(e, extra);
    return _mm512_add_pd(_mm512_mul_pd(k, _mm512_set1_pd(LOGZ_LN2_HI)),
                         _mm512_add_pd(_mm512_mul_pd(k, _mm512_set1_pd(LOGZ_LN2_LO)), logM));
}

// The unit loop of 16 cells: Multi when the lanes belong to more than one row (each row's lanes take its a_j and
// a2_j by masked broadcast).
template <bool Multi>
void levelLoop(const LevelRow* rows, const int* groupRow, const __mmask16* groupMask, int groups, int h,
               __m512 minusBetaF, __m512d logP[2], __m512d weighted[2]) {
    const __m512 oneF = _mm512_set1_ps(1.0f);
    __m512d product[2] = {_mm512_set1_pd(1.0), _mm512_set1_pd(1.0)};
    __m512d sum[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    __m512d exponent[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    __m512 blockProduct = oneF, blockSum = _mm512_setzero_ps();
    const float* a = rows[groupRow[0]].a;
    const float* a2 = rows[groupRow[0]].a2;
    for (int j = 0; j < h; j++) {
        __m512 av = _mm512_set1_ps(a[j]);
        __m512 av2 = _mm512_set1_ps(a2[j]);
        if (Multi) {
            for (int g = 1; g < groups; g++) {
                av = _mm512_mask_mov_ps(av, groupMask[g], _mm512_set1_ps(rows[groupRow[g]].a[j]));
                av2 = _mm512_mask_mov_ps(av2, groupMask[g], _mm512_set1_ps(rows[groupRow[g]].a2[j]));
            }
        }
        __m512 t = exp2Neg16(_mm512_mul_ps(minusBetaF, av2));
        __m512 s = _mm512_add_ps(oneF, t);
        blockProduct = _mm512_mul_ps(blockProduct, s);
        blockSum = _mm512_fmadd_ps(av, _mm512_div_ps(t, s), blockSum);
        if ((j + 1) % LOGZ_LEVEL_BLOCK == 0 || j + 1 == h) {
            product[0] = _mm512_mul_pd(product[0], lowDoubles(blockProduct));
            product[1] = _mm512_mul_pd(product[1], highDoubles(blockProduct));
            sum[0] = _mm512_add_pd(sum[0], lowDoubles(blockSum));
            sum[1] = _mm512_add_pd(sum[1], highDoubles(blockSum));
            blockProduct = oneF;
            blockSum = _mm512_setzero_ps();
        }
        if ((j + 1) % LOGZ_PRODUCT_SPAN == 0) {
            product[0] = renormalize8(product[0], &exponent[0]);
            product[1] = renormalize8(product[1], &exponent[1]);
        }
    }
    for (int half = 0; half < 2; half++) {
        logP[half] = logScaled8(product[half], exponent[half]);
        weighted[half] = sum[half];
    }
}

// 16 (row, level) cells at once: lane l is level laneLevel[l] of row laneRow[l] (lanes past `lanes` repeat the
// last cell and are not stored); logz_level_acc per lane. Cells of one row share its a_j and a2_j, so the cells of a
// ladder shorter than 16 levels, or the last levels of a longer one, share a register across rows.
void levelCells512(const LevelRow* rows, const int* laneRow, const int* laneLevel, int lanes, int h,
                   const double* betas, double* logP, double* weighted) {
    alignas(64) double beta[16];
    int groupRow[16];
    __mmask16 groupMask[16];
    int groups = 0;
    for (int l = 0; l < 16; l++) {
        int cell = l < lanes ? l : lanes - 1;
        beta[l] = betas[laneLevel[cell]];
        if (groups == 0 || groupRow[groups - 1] != laneRow[cell]) {
            groupRow[groups] = laneRow[cell];
            groupMask[groups] = 0;
            groups++;
        }
        groupMask[groups - 1] |= (__mmask16) (1u << l);
    }
    // -(β·a2) = (-β)·a2 exactly: rounding is symmetric
    __m512 minusBetaF = _mm512_or_ps(joinFloats(_mm512_load_pd(beta), _mm512_load_pd(beta + 8)), _mm512_set1_ps(-0.0f));
    __m512d logs[2], sums[2];
    if (groups == 1) {
        levelLoop<false>(rows, groupRow, groupMask, groups, h, minusBetaF, logs, sums);
    } else {
        levelLoop<true>(rows, groupRow, groupMask, groups, h, minusBetaF, logs, sums);
    }
    alignas(64) double p[16], w[16];
    _mm512_store_pd(p, logs[0]);
    _mm512_store_pd(p + 8, logs[1]);
    _mm512_store_pd(w, sums[0]);
    _mm512_store_pd(w + 8, sums[1]);
    for (int l = 0; l < lanes; l++) {
        logP[l] = p[l];
        weighted[l] = w[l];
    }
}

thread_local std::vector<LevelRow> scratchRows;
thread_local std::vector<char> scratchValid;

// Every level of every row: full blocks of 16 levels row by row, then the remaining levels of all rows packed
// 16 cells to a register.
void levels512(const logz_rbm* m, const float* u, const float* x, int rows, const double* betas, int levels,
               double* logF, double* slope) {
    int h = m->h;
    if (scratchRows.size() < (size_t) rows) {
        scratchRows.resize(rows);
        scratchValid.resize(rows);
    }
    float* a = grow(scratchA, (size_t) rows * h);
    float* a2 = grow(scratchA2, (size_t) rows * h);
    LevelRow* info = scratchRows.data();
    for (int r = 0; r < rows; r++) {
        scratchValid[r] = levelRow512(m, u + (size_t) r * h, x + (size_t) r * m->n, a + (size_t) r * h,
                                      a2 + (size_t) r * h, &info[r]);
    }
    int laneRow[16], laneLevel[16];
    double logP[16], weighted[16];
    int lanes = 0;
    auto flush = [&]() {
        levelCells512(info, laneRow, laneLevel, lanes, h, betas, logP, weighted);
        for (int l = 0; l < lanes; l++) {
            size_t cell = (size_t) laneRow[l] * levels + laneLevel[l];
            levelValues(info[laneRow[l]], betas[laneLevel[l]], logP[l], weighted[l], logF + cell, slope + cell);
        }
        lanes = 0;
    };
    int full = levels / 16 * 16;
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 0; r < rows; r++) {
            if (!scratchValid[r]) {
                continue;
            }
            for (int k = pass == 0 ? 0 : full; k < (pass == 0 ? full : levels); k++) {
                laneRow[lanes] = r;
                laneLevel[lanes] = k;
                if (++lanes == 16) {
                    flush();
                }
            }
        }
    }
    if (lanes > 0) {
        flush();
    }
    for (int r = 0; r < rows; r++) {
        if (!scratchValid[r]) {
            levelsNaN(levels, logF + (size_t) r * levels, slope + (size_t) r * levels);
        }
    }
}
#endif  // __AVX512F__

}  // namespace
