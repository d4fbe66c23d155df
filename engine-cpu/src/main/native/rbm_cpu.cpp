// The CPU backend's RBM kernels, compiled by build.sh once per instruction set: -march=x86-64-v4 with
// LOGZ_ISA=avx512, x86-64-v3 with avx2, and the platform's baseline with generic (DESIGN §4.1). The kernel families
// are products.h, draws.h, anneal.h and levels.h (simd.h what they share); this file exports them as C functions
// whose names carry the instruction set.
// All three give the same bits, and JavaRbmMath gives them too, because each quantity is defined by
// operations that every path performs in the same order:
//
//  - Products (U = X W, V = H Wᵀ): every output is fma(a_k, b_k, acc) over k = 0, 1, ... in order from +0,
//    one accumulator per output. A row's result therefore depends on nothing but its own inputs (not on the
//    batch size, the tile, the thread or the micro-kernel), and a product over a prefix of k equals the full
//    product when the rest of the row is zero (the sequential path multiplies only the units entered so far).
//    Dense rows go through a register-blocked micro-kernel, sparse ones (binary states are mostly zeros) through
//    their nonzero entries only: the same roundings, since fma(0, b, acc) = acc.
//  - Draws (u < p ? 1 : 0): p is the Java backend's float32 expression (RbmDraws.logistic, or the float64
//    one of an AIS step); the kernels compute an approximation p~ with |p~ - p| far below 2^-18 p, decide when
//    |u - p~| > 2^-18 p~ + 2^-140 (then u < p~ exactly when u < p) and list the rest as ambiguous for the
//    caller to draw with the Java expression. About 10^-6 of the draws are listed.
//  - Sums over a row (visible dot products, Σ max(u, 0)): 16 partial sums, element i into partial i mod 16
//    in order, combined as an AVX-512 register pair is (lanes l and l + 8, then l and l + 4, l and l + 2,
//    then the last two).
//  - AIS increments: Σ_j softplus(β u_j) = β Σ_j max(u_j, 0) + log Π_j (1 + e^{-β|u_j|}) with 16 partial
//    products (unit j into product j mod 16, each renormalized every 256 of its factors), e^x by
//    expNegDouble below, logs by fastmath.cuh's logz_log_scaled.
//  - All-level log densities: fastmath.cuh's logz_level_acc per level, units in order.
//
// Deterministic: no atomics, no reductions across calls; thread-safe for distinct outputs.
#include "anneal.h"
#include "draws.h"
#include "levels.h"
#include "products.h"
#include "simd.h"

#define LOGZ_CAT2(a, b) a##_##b
#define LOGZ_CAT(a, b) LOGZ_CAT2(a, b)
#define LOGZ_FN(name) LOGZ_CAT(name, LOGZ_ISA)

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
    m->a = static_cast<float*>(malloc((size_t) n * sizeof(float)));
    m->a0 = static_cast<float*>(malloc((size_t) n * sizeof(float)));
    m->b = static_cast<float*>(malloc((size_t) h * sizeof(float)));
    m->visibleSlope = static_cast<double*>(malloc((size_t) n * sizeof(double)));
    if (m->wPacked == nullptr || m->wtPacked == nullptr || m->a == nullptr || m->a0 == nullptr || m->b == nullptr
        || m->visibleSlope == nullptr) {
        LOGZ_FN(logz_rbm_free)(m);
        return nullptr;
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
    free(m->a);
    free(m->a0);
    free(m->b);
    free(m->visibleSlope);
    free(m);
}

void LOGZ_FN(logz_product_xw)(const logz_rbm* m, const float* x, int rows, int active, float* u) {
    product(x, m->n, rows, active, m->wPacked, m->n, m->h, u, m->h);
}

void LOGZ_FN(logz_product_hwt)(const logz_rbm* m, const float* hid, int rows, int active, float* v) {
    product(hid, m->h, rows, m->h, m->wtPacked, m->h, active, v, m->n);
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
