// The CPU backend's RBM kernels, compiled by build.sh once per instruction set: -march=x86-64-v4 with
// LOGZ_ISA=avx512, x86-64-v3 with avx2, and the platform's baseline with generic (DESIGN §4 "CPU kernels").
// All three give the same bits, and JavaRbmMath gives them too, because each quantity is defined by
// operations that every path performs in the same order:
//
//  - Products (U = X W, V = H Wᵀ): every output is fma(a_k, b_k, acc) over k = 0, 1, ... in order from +0,
//    one accumulator per output. A row's result therefore depends on nothing but its own inputs (not on the
//    batch size, the tile, the thread or the micro-kernel), and a product over a prefix of k equals the full
//    product when the rest of the row is zero (the sequential path multiplies only the units entered so far).
//  - Draws (u < p ? 1 : 0): p is the Java backend's float32 expression (CpuRbmKernel.logistic, or the float64
//    one of an AIS step); the kernels compute an approximation p~ with |p~ - p| far below 2^-18 p, decide when
//    |u - p~| > 2^-18 p~ + 2^-140 (then u < p~ exactly when u < p) and list the rest as ambiguous for the
//    caller to draw with the Java expression. About 10^-6 of the draws are listed.
//  - Sums over a row (visible dot products, Σ max(u, 0)): 16 partial sums, element i into partial i mod 16
//    in order, combined as an AVX-512 register pair is (lanes l and l + 8, then l and l + 4, l and l + 2,
//    then the last two).
//  - AIS increments: Σ_j softplus(β u_j) = β Σ_j max(u_j, 0) + log Π_j (1 + e^{-β|u_j|}) with 16 partial
//    products (unit j into product j mod 16, each renormalized every 256 of its factors), e^x by
//    exp_neg_double below, logs by fastmath.cuh's logz_log_scaled.
//  - All-level log densities: fastmath.cuh's logz_level_acc per level, units in order.
//
// Deterministic: no atomics, no reductions across calls; thread-safe for distinct outputs.
#include "logz_cpu.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utility>
#include <vector>

#include "fastmath.cuh"

// kernels-cu's Philox (philox.cuh) is device code: on the host its qualifiers are plain inline functions and
// __umulhi is the high word of the 64-bit product, so the CPU kernels share its one definition.
#define __device__
#define __forceinline__ inline
static inline unsigned int __umulhi(unsigned int a, unsigned int b) {
    return (unsigned int) (((unsigned long long) a * b) >> 32);
}
#include "philox.cuh"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#define LOGZ_CAT2(a, b) a##_##b
#define LOGZ_CAT(a, b) LOGZ_CAT2(a, b)
#define LOGZ_FN(name) LOGZ_CAT(name, LOGZ_ISA)

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

// ---------------------------------------------------------------------------------------------------------
// Products

// B (k × cols, element (i, j) at b[i·rowStride + j·colStride]) into panels of NR columns, zero-padded.
float* pack(const float* b, int k, int cols, long rowStride, long colStride) {
    int panels = (cols + NR - 1) / NR;
    float* p = static_cast<float*>(aligned_alloc(64, ((size_t) panels * k * NR * sizeof(float) + 63) / 64 * 64));
    if (p == nullptr) {
        return nullptr;
    }
    for (int q = 0; q < panels; q++) {
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < NR; j++) {
                int col = q * NR + j;
                p[((size_t) q * k + i) * NR + j] = col < cols ? b[i * rowStride + col * colStride] : 0.0f;
            }
        }
    }
    return p;
}

#if defined(__AVX512F__)
// rows (<= MR) × cols (<= NR) of C from rows of A (lda) over k, panel bp (kFull rows of NR): 16 zmm
// accumulators, two panel loads and MR broadcasts per k.
template <int R>
void micro(const float* a, long lda, int k, const float* bp, float* c, long ldc, int cols) {
    __m512 acc[R][2];
    for (int i = 0; i < R; i++) {
        acc[i][0] = _mm512_setzero_ps();
        acc[i][1] = _mm512_setzero_ps();
    }
    for (int kk = 0; kk < k; kk++) {
        __m512 b0 = _mm512_load_ps(bp + (size_t) kk * NR);
        __m512 b1 = _mm512_load_ps(bp + (size_t) kk * NR + 16);
#pragma GCC unroll 8
        for (int i = 0; i < R; i++) {
            __m512 av = _mm512_set1_ps(a[i * lda + kk]);
            acc[i][0] = _mm512_fmadd_ps(av, b0, acc[i][0]);
            acc[i][1] = _mm512_fmadd_ps(av, b1, acc[i][1]);
        }
    }
    __mmask16 m0 = cols >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << cols) - 1);
    __mmask16 m1 = cols >= 32 ? (__mmask16) 0xFFFF : cols > 16 ? (__mmask16) ((1u << (cols - 16)) - 1) : 0;
    for (int i = 0; i < R; i++) {
        _mm512_mask_storeu_ps(c + i * ldc, m0, acc[i][0]);
        _mm512_mask_storeu_ps(c + i * ldc + 16, m1, acc[i][1]);
    }
}
#elif defined(__AVX2__)
// 12 ymm accumulators: rows (<= 6) × 16 columns.
template <int R>
void micro(const float* a, long lda, int k, const float* bp, float* c, long ldc, int cols) {
    __m256 acc[R][2];
    for (int i = 0; i < R; i++) {
        acc[i][0] = _mm256_setzero_ps();
        acc[i][1] = _mm256_setzero_ps();
    }
    for (int kk = 0; kk < k; kk++) {
        __m256 b0 = _mm256_load_ps(bp + (size_t) kk * NR);
        __m256 b1 = _mm256_load_ps(bp + (size_t) kk * NR + 8);
#pragma GCC unroll 6
        for (int i = 0; i < R; i++) {
            __m256 av = _mm256_broadcast_ss(a + i * lda + kk);
            acc[i][0] = _mm256_fmadd_ps(av, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(av, b1, acc[i][1]);
        }
    }
    for (int i = 0; i < R; i++) {
        if (cols == NR) {
            _mm256_storeu_ps(c + i * ldc, acc[i][0]);
            _mm256_storeu_ps(c + i * ldc + 8, acc[i][1]);
        } else {
            alignas(32) float row[NR];
            _mm256_store_ps(row, acc[i][0]);
            _mm256_store_ps(row + 8, acc[i][1]);
            memcpy(c + i * ldc, row, (size_t) cols * sizeof(float));
        }
    }
}
#else
template <int R>
void micro(const float* a, long lda, int k, const float* bp, float* c, long ldc, int cols) {
    float acc[R][NR] = {};
    for (int kk = 0; kk < k; kk++) {
        const float* bk = bp + (size_t) kk * NR;
        for (int i = 0; i < R; i++) {
            float av = a[i * lda + kk];
            for (int j = 0; j < NR; j++) {
                acc[i][j] = fmaf(av, bk[j], acc[i][j]);
            }
        }
    }
    for (int i = 0; i < R; i++) {
        memcpy(c + i * ldc, acc[i], (size_t) cols * sizeof(float));
    }
}
#endif

template <int R>
void microRows(int rows, const float* a, long lda, int k, const float* bp, float* c, long ldc, int cols) {
    if constexpr (R > 1) {
        if (rows < R) {
            microRows<R - 1>(rows, a, lda, k, bp, c, ldc, cols);
            return;
        }
    }
    micro<R>(a, lda, k, bp, c, ldc, cols);
}

// C (rows × cols, ldc) = A (rows × k, lda) · B, B packed in panels of kFull rows: panel-major, so a panel
// (kFull·NR floats) stays in cache while every MR-row block of A streams past it.
void dense(const float* a, long lda, int rows, int k, const float* packed, int kFull, int cols, float* c, long ldc) {
    int panels = (cols + NR - 1) / NR;
    for (int q = 0; q < panels; q++) {
        const float* bp = packed + (size_t) q * kFull * NR;
        int width = cols - q * NR < NR ? cols - q * NR : NR;
        for (int r = 0; r < rows; r += MR) {
            int block = rows - r < MR ? rows - r : MR;
            microRows<MR>(block, a + r * lda, lda, k, bp, c + r * ldc + q * NR, ldc, width);
        }
    }
}

#if defined(__AVX512F__)
// Columns [0, width) of one row of the sparse product (width <= 256): G = ceil(width / 16) registers.
template <int G>
void sparseColumns(const float* ar, const int* index, int nonzero, const float* b, long ldb, int width, float* cr) {
    __m512 acc[G];
    __mmask16 lanes[G];
    for (int q = 0; q < G; q++) {
        acc[q] = _mm512_setzero_ps();
        int left = width - 16 * q;
        lanes[q] = left >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << left) - 1);
    }
    for (int e = 0; e < nonzero; e++) {
        int i = index[e];
        __m512 v = _mm512_set1_ps(ar[i]);
        const float* bi = b + i * ldb;
#pragma GCC unroll 16
        for (int q = 0; q < G; q++) {
            acc[q] = _mm512_fmadd_ps(v, _mm512_maskz_loadu_ps(lanes[q], bi + 16 * q), acc[q]);
        }
    }
    for (int q = 0; q < G; q++) {
        _mm512_mask_storeu_ps(cr + 16 * q, lanes[q], acc[q]);
    }
}

template <int... G>
void sparseChunkOf(int groups, const float* ar, const int* index, int nonzero, const float* b, long ldb, int width,
                   float* cr, std::integer_sequence<int, G...>) {
    ((groups == G + 1 ? sparseColumns<G + 1>(ar, index, nonzero, b, ldb, width, cr) : void()), ...);
}

void sparseChunk(const float* ar, const int* index, int nonzero, const float* b, long ldb, int width, float* cr) {
    sparseChunkOf((width + 15) / 16, ar, index, nonzero, b, ldb, width, cr, std::make_integer_sequence<int, 16>());
}
#endif

// The same product row by row over A's nonzero entries only, B row-major (ldb): c_r = Σ_{k: a_rk != 0} a_rk·b_k
// by fma in order of k, which is the dense product's sequence of roundings without its fma(0, b, acc) = acc steps
// (an accumulator that starts at +0 never becomes -0, so adding ±0 never changes it). Binary states are mostly
// zeros, and then this reads a fraction of B.
void sparse(const float* a, long lda, int rows, int k, const float* b, long ldb, int cols, float* c, long ldc) {
    thread_local std::vector<int> index;
    if (index.size() < (size_t) k) {
        index.resize(k);
    }
    for (int r = 0; r < rows; r++) {
        const float* ar = a + r * lda;
        int nonzero = 0;
        for (int i = 0; i < k; i++) {
            if (ar[i] != 0.0f) {
                index[nonzero++] = i;
            }
        }
        float* cr = c + r * ldc;
#if defined(__AVX512F__)
        for (int c0 = 0; c0 < cols; c0 += 256) {
            sparseChunk(ar, index.data(), nonzero, b + c0, ldb, cols - c0 < 256 ? cols - c0 : 256, cr + c0);
        }
#else
        for (int j = 0; j < cols; j++) {
            cr[j] = 0.0f;
        }
        for (int e = 0; e < nonzero; e++) {
            int i = index[e];
            float v = ar[i];
            const float* bi = b + i * ldb;
            for (int j = 0; j < cols; j++) {
                cr[j] = fmaf(v, bi[j], cr[j]);
            }
        }
#endif
    }
}

// Densities of A (nonzeros per entry) at or below which the sparse form runs: it reads one row of B per nonzero
// where the dense form's micro-kernel shares each B load among MR rows.
constexpr double SPARSE_DENSITY = 0.2;

// C = A B by whichever form is faster for A's density; both give the same bits.
void product(const float* a, long lda, int rows, int k, const float* packed, int kFull, const float* rowMajor, long ldb,
             int cols, float* c, long ldc) {
    long nonzero = 0;
    for (int r = 0; r < rows; r++) {
        const float* ar = a + r * lda;
        for (int i = 0; i < k; i++) {
            nonzero += ar[i] != 0.0f;
        }
    }
    if (nonzero <= SPARSE_DENSITY * rows * k) {
        sparse(a, lda, rows, k, rowMajor, ldb, cols, c, ldc);
    } else {
        dense(a, lda, rows, k, packed, kFull, cols, c, ldc);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Random numbers and draws

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

// ---------------------------------------------------------------------------------------------------------
// Row sums and double-precision exponentials

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

// Σ_i coefficient_i · x_i in float64 (x binary, so every product is exact) over 16 partials.
double dot16(const double* coefficient, const float* x, int n) {
    double s[16] = {};
    for (int i = 0; i < n; i++) {
        s[i % 16] = s[i % 16] + coefficient[i] * (double) x[i];
    }
    return combine16(s);
}

// Σ_i a_i · x_i with float a (products exact in float64).
double dotf16(const float* a, const float* x, int n) {
    double s[16] = {};
    for (int i = 0; i < n; i++) {
        s[i % 16] = s[i % 16] + (double) a[i] * (double) x[i];
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

// ---------------------------------------------------------------------------------------------------------
// Generic row kernels (the definition every path follows)

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
// ---------------------------------------------------------------------------------------------------------
// AVX-512 row kernels: the generic definitions, 16 lanes at a time

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

inline __mmask16 lanesBelow(int left) {
    return left >= 16 ? (__mmask16) 0xFFFF : left <= 0 ? (__mmask16) 0 : (__mmask16) ((1u << left) - 1);
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

// ---------------------------------------------------------------------------------------------------------
// The exported functions

extern "C" {

logz_rbm* LOGZ_FN(logz_rbm_create)(const float* w, const float* a, const float* b, const float* a0, int n, int h) {
    logz_rbm* m = static_cast<logz_rbm*>(calloc(1, sizeof(logz_rbm)));
    if (m == nullptr) {
        return nullptr;
    }
    m->isa = ISA_ID;
    m->n = n;
    m->h = h;
    m->panelWidth = NR;
    m->wPacked = pack(w, n, h, h, 1);
    m->wtPacked = pack(w, h, n, 1, h);
    m->w = static_cast<float*>(malloc((size_t) n * h * sizeof(float)));
    m->wt = static_cast<float*>(malloc((size_t) n * h * sizeof(float)));
    m->a = static_cast<float*>(malloc((size_t) n * sizeof(float)));
    m->a0 = static_cast<float*>(malloc((size_t) n * sizeof(float)));
    m->b = static_cast<float*>(malloc((size_t) h * sizeof(float)));
    m->visibleSlope = static_cast<double*>(malloc((size_t) n * sizeof(double)));
    if (m->wPacked == nullptr || m->wtPacked == nullptr || m->w == nullptr || m->wt == nullptr || m->a == nullptr
        || m->a0 == nullptr || m->b == nullptr || m->visibleSlope == nullptr) {
        LOGZ_FN(logz_rbm_free)(m);
        return nullptr;
    }
    memcpy(m->w, w, (size_t) n * h * sizeof(float));
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < h; j++) {
            m->wt[(size_t) j * n + i] = w[(size_t) i * h + j];
        }
    }
    memcpy(m->a, a, (size_t) n * sizeof(float));
    memcpy(m->a0, a0, (size_t) n * sizeof(float));
    memcpy(m->b, b, (size_t) h * sizeof(float));
    for (int i = 0; i < n; i++) {
        m->visibleSlope[i] = (double) a[i] - (double) a0[i];
    }
    return m;
}

void LOGZ_FN(logz_rbm_free)(logz_rbm* m) {
    if (m == nullptr) {
        return;
    }
    free(m->wPacked);
    free(m->wtPacked);
    free(m->w);
    free(m->wt);
    free(m->a);
    free(m->a0);
    free(m->b);
    free(m->visibleSlope);
    free(m);
}

void LOGZ_FN(logz_product_xw)(const logz_rbm* m, const float* x, int rows, int active, float* u) {
    product(x, m->n, rows, active, m->wPacked, m->n, m->w, m->h, m->h, u, m->h);
}

void LOGZ_FN(logz_product_hwt)(const logz_rbm* m, const float* hid, int rows, int active, float* v) {
    product(hid, m->h, rows, m->h, m->wtPacked, m->h, m->wt, m->n, active, v, m->n);
}

int LOGZ_FN(logz_sample_hidden)(const logz_rbm* m, const float* field, int rows, int withBias, const float* beta,
                                uint64_t seed, int particle0, int step, int tag, float* out, int* ambiguous,
                                int capacity) {
    int count = 0;
    for (int r = 0; r < rows; r++) {
#if defined(__AVX512F__)
        count = hiddenRow512(m, field + (size_t) r * m->h, withBias, beta[r], seed, particle0 + r, step, tag,
                             out + (size_t) r * m->h, ambiguous, count, capacity, r);
#else
        count = hiddenRowGeneric(m, field + (size_t) r * m->h, withBias, beta[r], seed, particle0 + r, step, tag,
                                 out + (size_t) r * m->h, ambiguous, count, capacity, r);
#endif
    }
    return count;
}

int LOGZ_FN(logz_sample_visible)(const logz_rbm* m, const float* v, int rows, int active, const float* beta,
                                 uint64_t seed, int particle0, int step, int tag, float* x, int* ambiguous,
                                 int capacity) {
    int count = 0;
    for (int r = 0; r < rows; r++) {
#if defined(__AVX512F__)
        count = visibleRow512(m, v + (size_t) r * m->n, active, beta[r], seed, particle0 + r, step, tag,
                              x + (size_t) r * m->n, ambiguous, count, capacity, r);
#else
        count = visibleRowGeneric(m, v + (size_t) r * m->n, active, beta[r], seed, particle0 + r, step, tag,
                                  x + (size_t) r * m->n, ambiguous, count, capacity, r);
#endif
    }
    return count;
}

int LOGZ_FN(logz_anneal)(const logz_rbm* m, const float* u, const float* x, int rows, double from, double to, int draw,
                         uint64_t seed, int particle0, int step, int tag, double* logW, float* out, int* ambiguous,
                         int capacity) {
    int count = 0;
    for (int r = 0; r < rows; r++) {
#if defined(__AVX512F__)
        count = annealRow512(m, u + (size_t) r * m->h, x + (size_t) r * m->n, from, to, draw, seed, particle0 + r,
                             step, tag, logW + r, out + (size_t) r * m->h, ambiguous, count, capacity, r);
#else
        count = annealRowGeneric(m, u + (size_t) r * m->h, x + (size_t) r * m->n, from, to, draw, seed,
                                 particle0 + r, step, tag, logW + r, out + (size_t) r * m->h, ambiguous, count,
                                 capacity, r);
#endif
    }
    return count;
}

void LOGZ_FN(logz_levels)(const logz_rbm* m, const float* u, const float* x, int rows, const double* betas,
                          int levels, double* logF, double* slope) {
#if defined(__AVX512F__)
    levels512(m, u, x, rows, betas, levels, logF, slope);
#else
    for (int r = 0; r < rows; r++) {
        levelsRowGeneric(m, u + (size_t) r * m->h, x + (size_t) r * m->n, betas, levels, logF + (size_t) r * levels,
                         slope + (size_t) r * levels);
    }
#endif
}

}  // extern "C"
