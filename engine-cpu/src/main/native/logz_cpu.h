// The CPU backend's native RBM kernels (DESIGN §4 "CPU kernels"): the C interface between jni.cpp and the
// kernel file rbm_cpu.cpp, which build.sh compiles once per instruction set (avx512, avx2, generic) with
// the functions' names suffixed by it. Every instruction set gives the same bits, and so does the Java
// fallback (JavaRbmMath) that mirrors the generic code.
//
// Buffers are row-major; `rows` rows per call (one 64-row tile of the Java side at most, but nothing here
// depends on that); the particle of row r is particle0 + r for Philox counters. No call keeps a pointer or
// touches memory outside the rows it is given; every call is thread-safe for distinct outputs.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// A binary RBM bound for sampling: the weights packed for both products (panels of as many columns as the
// instruction set's GEMM micro-kernel takes), biases, base rate. Made and used by one instruction set.
typedef struct logz_rbm {
    int isa;          // LOGZ_ISA_* of the functions that made it
    int n;            // visible units
    int h;            // hidden units
    int panelWidth;   // columns per packed panel
    float* wPacked;   // U = X W: K = n rows, h columns in panels [panel][k][panelWidth]
    float* wtPacked;  // V = H Wᵀ: K = h rows, n columns in panels
    float* a;         // visible bias
    float* b;         // hidden bias
    float* a0;        // base-rate log-odds
    double* visibleSlope;  // a - a0 in float64
} logz_rbm;

#define LOGZ_ISA_GENERIC 0
#define LOGZ_ISA_AVX2 1
#define LOGZ_ISA_AVX512 2

// Ambiguous draws: where the fast arithmetic cannot prove u < p or u >= p for the Java definition of p,
// the unit's index r·units + j is listed for the caller to draw exactly; -1 when more than `capacity`.
#define LOGZ_AMBIGUOUS_OVERFLOW (-1)

#define LOGZ_DECLARE(isa)                                                                                      \
    logz_rbm* logz_rbm_create_##isa(const float* w, const float* a, const float* b, const float* a0, int n,     \
                                    int h);                                                                    \
    void logz_rbm_free_##isa(logz_rbm* m);                                                                     \
    void logz_product_xw_##isa(const logz_rbm* m, const float* x, int rows, int active, float* u);            \
    void logz_product_hwt_##isa(const logz_rbm* m, const float* hid, int rows, int active, float* v);         \
    int logz_sample_hidden_##isa(const logz_rbm* m, const float* field, int rows, int withBias,                \
                                 const float* beta, uint64_t seed, int particle0, int step, int tag,          \
                                 float* out, int* ambiguous, int capacity);                                   \
    int logz_sample_visible_##isa(const logz_rbm* m, const float* v, int rows, int active, const float* beta, \
                                  uint64_t seed, int particle0, int step, int tag, float* x, int* ambiguous,  \
                                  int capacity);                                                              \
    int logz_anneal_##isa(const logz_rbm* m, const float* u, const float* x, int rows, double from, double to, \
                          int draw, uint64_t seed, int particle0, int step, int tag, double* logW, float* out, \
                          int* ambiguous, int capacity);                                                      \
    void logz_levels_##isa(const logz_rbm* m, const float* u, const float* x, int rows, const double* betas,   \
                           int levels, double* logF, double* slope);

LOGZ_DECLARE(avx512)
LOGZ_DECLARE(avx2)
LOGZ_DECLARE(generic)

#ifdef __cplusplus
}
#endif
