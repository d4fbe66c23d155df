// The products of a Gibbs sweep, U = X W and V = H Wᵀ (DESIGN §4.1): each output a sequence of fma over k in order
// from +0, by a register-blocked micro-kernel over W packed in panels (dense rows) or over a row's nonzero entries
// (sparse rows); the same roundings either way.
#pragma once

#include "simd.h"

namespace {

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

// Where column `col` of row i of B starts in the packed panels: column col is lane col % NR of panel col / NR, whose
// rows are kFull apart. 16 consecutive columns from a multiple of 16 lie in one panel.
inline const float* packedAt(const float* packed, int kFull, int col) {
    return packed + ((size_t) (col / NR) * kFull) * NR + col % NR;
}

// The sparse product's blocks of B: SPARSE_CHUNK columns (8 AVX-512 registers; NR elsewhere) × SPARSE_DEPTH rows of
// packed panels (64 KiB), which every row of a call reuses from L2 while it adds the rows its nonzeros name. Sparse
// rows read one element of B per fma where the dense micro-kernel shares each load among MR rows, so the block's
// cache level bounds their speed; smaller blocks that fit L1 lose more to the per-block work than they gain
// (measured on the CD-25 RBM's states, Zen 4: 64 × 64 and 64 × 96 slower than 128 × 128).
#if defined(__AVX512F__)
constexpr int SPARSE_CHUNK = 128;
#else
constexpr int SPARSE_CHUNK = NR;
#endif
constexpr int SPARSE_DEPTH = 128;

#if defined(__AVX512F__)
// Columns [c0, c0 + width) of one row of the sparse product (width <= SPARSE_CHUNK, c0 a multiple of 16) over the
// nonzero entries listed: G = ceil(width / 16) registers, each reading 16 columns of those entries' rows from their
// panel; from +0, or with `resume` from the sums already in cr (storing and reloading a float sum is exact, so a
// row's fma sequence over k is the same in blocks).
template <int G>
void sparseColumns(const float* ar, const int* index, int nonzero, const float* packed, int kFull, int c0, int width,
                   float* cr, bool resume) {
    __m512 acc[G];
    __mmask16 lanes[G];
    const float* group[G];
    // every loop over q unrolled, so that the accumulators live in registers (an indexed one would sit on the stack,
    // stored at every nonzero)
#pragma GCC unroll 16
    for (int q = 0; q < G; q++) {
        int left = width - 16 * q;
        lanes[q] = left >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << left) - 1);
        acc[q] = resume ? _mm512_maskz_loadu_ps(lanes[q], cr + 16 * q) : _mm512_setzero_ps();
        group[q] = packedAt(packed, kFull, c0 + 16 * q);
    }
    for (int e = 0; e < nonzero; e++) {
        size_t offset = (size_t) index[e] * NR;
        __m512 v = _mm512_set1_ps(ar[index[e]]);
#pragma GCC unroll 16
        for (int q = 0; q < G; q++) {
            acc[q] = _mm512_fmadd_ps(v, _mm512_maskz_loadu_ps(lanes[q], group[q] + offset), acc[q]);
        }
    }
#pragma GCC unroll 16
    for (int q = 0; q < G; q++) {
        _mm512_mask_storeu_ps(cr + 16 * q, lanes[q], acc[q]);
    }
}

template <int... G>
void sparseChunkOf(int groups, const float* ar, const int* index, int nonzero, const float* packed, int kFull, int c0,
                   int width, float* cr, bool resume, std::integer_sequence<int, G...>) {
    ((groups == G + 1 ? sparseColumns<G + 1>(ar, index, nonzero, packed, kFull, c0, width, cr, resume) : void()), ...);
}

void sparseChunk(const float* ar, const int* index, int nonzero, const float* packed, int kFull, int c0, int width,
                 float* cr, bool resume) {
    sparseChunkOf((width + 15) / 16, ar, index, nonzero, packed, kFull, c0, width, cr, resume,
                  std::make_integer_sequence<int, SPARSE_CHUNK / 16>());
}
#endif

// Row r's nonzero columns of A in order, written to index[r·k ...], and where each depth block's begin:
// starts[r·(blocks + 1) + q] is the first of them at or past column q·SPARSE_DEPTH, starts[... + blocks] their count.
void nonzeros(const float* a, long lda, int rows, int k, int blocks, int* index, int* starts) {
    for (int r = 0; r < rows; r++) {
        const float* ar = a + r * lda;
        int* ir = index + (size_t) r * k;
        int* sr = starts + (size_t) r * (blocks + 1);
        int nonzero = 0;
        sr[0] = 0;  // also where k = 0 leaves one empty block
#if defined(__AVX512F__)
        const __m512i step = _mm512_set1_epi32(16);
        __m512i columns = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        for (int i = 0; i < k; i += 16) {
            if (i % SPARSE_DEPTH == 0) {
                sr[i / SPARSE_DEPTH] = nonzero;
            }
            __mmask16 valid = lanesBelow(k - i);
            __mmask16 on = _mm512_mask_cmp_ps_mask(valid, _mm512_maskz_loadu_ps(valid, ar + i), _mm512_setzero_ps(),
                                                   _CMP_NEQ_UQ);
            _mm512_mask_compressstoreu_epi32(ir + nonzero, on, columns);
            nonzero += __builtin_popcount((unsigned) on);
            columns = _mm512_add_epi32(columns, step);
        }
#else
        for (int i = 0; i < k; i++) {
            if (i % SPARSE_DEPTH == 0) {
                sr[i / SPARSE_DEPTH] = nonzero;
            }
            if (ar[i] != 0.0f) {
                ir[nonzero++] = i;
            }
        }
#endif
        sr[blocks] = nonzero;
    }
}

// The same product over A's nonzero entries only, from the packed panels: c_r = Σ_{k: a_rk != 0} a_rk·b_k by fma in
// order of k, which is the dense product's sequence of roundings without its fma(0, b, acc) = acc steps (an
// accumulator that starts at +0 never becomes -0, so adding ±0 never changes it). Binary states are mostly zeros, and
// then this reads a fraction of B. B is read in blocks (SPARSE_CHUNK columns × SPARSE_DEPTH rows) that every row of
// the call reuses from L2, rather than each row fetching its nonzeros' whole rows of B from L3; a row's
// depth blocks run in order of k, so its fma sequence is unchanged.
void sparse(const float* a, long lda, int rows, int k, const float* packed, int kFull, int cols, float* c, long ldc) {
    thread_local std::vector<int> index;
    thread_local std::vector<int> starts;
    int blocks = k == 0 ? 1 : (k + SPARSE_DEPTH - 1) / SPARSE_DEPTH;
    if (index.size() < (size_t) rows * k) {
        index.resize((size_t) rows * k);
    }
    if (starts.size() < (size_t) rows * (blocks + 1)) {
        starts.resize((size_t) rows * (blocks + 1));
    }
    nonzeros(a, lda, rows, k, blocks, index.data(), starts.data());
    for (int c0 = 0; c0 < cols; c0 += SPARSE_CHUNK) {
        int width = cols - c0 < SPARSE_CHUNK ? cols - c0 : SPARSE_CHUNK;
        for (int q = 0; q < blocks; q++) {
            for (int r = 0; r < rows; r++) {
                const float* ar = a + r * lda;
                const int* ir = index.data() + (size_t) r * k;
                const int* sr = starts.data() + (size_t) r * (blocks + 1);
                int first = sr[q];
                int end = sr[q + 1];
                // the first block writes every sum (zeros where the row has no nonzero yet); later ones only add
                if (q > 0 && end == first) {
                    continue;
                }
                float* cr = c + r * ldc + c0;
#if defined(__AVX512F__)
                sparseChunk(ar, ir + first, end - first, packed, kFull, c0, width, cr, q > 0);
#else
                float acc[NR];
                for (int j = 0; j < NR; j++) {
                    acc[j] = q > 0 && j < width ? cr[j] : 0.0f;
                }
                const float* panel = packedAt(packed, kFull, c0);
                for (int e = first; e < end; e++) {
                    float v = ar[ir[e]];
                    const float* bi = panel + (size_t) ir[e] * NR;
                    for (int j = 0; j < NR; j++) {
                        acc[j] = fmaf(v, bi[j], acc[j]);
                    }
                }
                memcpy(cr, acc, (size_t) width * sizeof(float));
#endif
            }
        }
    }
}

// Densities of A (nonzeros per entry) at or below which the sparse form runs. With AVX-512 the blocked sparse form
// costs about 0.7 of the dense one at density 0.27 (the CD-25 RBM's hidden states), so it wins up to about 0.38;
// elsewhere its loop is plain C and the crossover lower.
#if defined(__AVX512F__)
constexpr double SPARSE_DENSITY = 0.35;
#else
constexpr double SPARSE_DENSITY = 0.2;
#endif

// C = A B by whichever form is faster for A's density; both give the same bits.
void product(const float* a, long lda, int rows, int k, const float* packed, int kFull, int cols, float* c, long ldc) {
    long nonzero = 0;
    for (int r = 0; r < rows; r++) {
        const float* ar = a + r * lda;
        for (int i = 0; i < k; i++) {
            nonzero += ar[i] != 0.0f;
        }
    }
    if (nonzero <= SPARSE_DENSITY * rows * k) {
        sparse(a, lda, rows, k, packed, kFull, cols, c, ldc);
    } else {
        dense(a, lda, rows, k, packed, kFull, cols, c, ldc);
    }
}

}  // namespace
