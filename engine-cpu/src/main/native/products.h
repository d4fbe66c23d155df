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

// Entries past the last row's list that nonzeros() may write: it stores 16 column numbers at a time from a row's
// count so far, the lanes past the row's nonzeros landing in the next row's list (written over next) or here.
constexpr int LIST_SLACK = 16;

// Where each row's nonzero columns of A are listed (nonzeros below): index[r·k ...] in order (rows·k + LIST_SLACK
// entries in all), starts[r·(blocks + 1) + q] the first at or past column q·SPARSE_DEPTH (starts[... + blocks] their
// count), ones[r] whether each of them is 1.
struct NonzeroLists {
    const int* index;
    const int* starts;
    const char* ones;
    int k;
    int blocks;
};

#if defined(__AVX512F__)
// Columns [c0, c0 + width) of depth block q of the sparse product, every row (width <= SPARSE_CHUNK, c0 a multiple
// of 16): G = ceil(width / 16) registers per row, each reading 16 columns of the rows of B that the row's nonzeros in
// the block name. The first block starts every sum at +0 (zeros where a row has no nonzero yet); later ones resume
// from the sums in C (storing and reloading a float sum is exact, so a row's fma sequence over k is the same in
// blocks). The panels' reads need no masks: a panel is NR columns wide, zero past B's last column, and lanes past
// `width` are never stored. Where every nonzero of a row is 1 (binary states) a step adds b_k: fma(1, b, acc) rounds
// the exact b + acc once, as the addition does, and the adds leave out the broadcast of a_rk.
template <int G>
void sparseBlock(const float* a, long lda, int rows, const NonzeroLists& lists, int q, const float* packed, int kFull,
                 int c0, int width, float* c, long ldc) {
    __mmask16 lanes[G];
    const float* group[G];
    // every loop over g unrolled, so that the accumulators live in registers (an indexed one would sit on the stack,
    // stored at every nonzero)
#pragma GCC unroll 16
    for (int g = 0; g < G; g++) {
        int left = width - 16 * g;
        lanes[g] = left >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << left) - 1);
        group[g] = packedAt(packed, kFull, c0 + 16 * g);
    }
    for (int r = 0; r < rows; r++) {
        const int* sr = lists.starts + (size_t) r * (lists.blocks + 1);
        const int* index = lists.index + (size_t) r * lists.k;
        int first = sr[q];
        int end = sr[q + 1];
        if (q > 0 && end == first) {
            continue;
        }
        float* cr = c + r * ldc + c0;
        __m512 acc[G];
#pragma GCC unroll 16
        for (int g = 0; g < G; g++) {
            acc[g] = q > 0 ? _mm512_maskz_loadu_ps(lanes[g], cr + 16 * g) : _mm512_setzero_ps();
        }
        if (lists.ones[r]) {
            for (int e = first; e < end; e++) {
                size_t offset = (size_t) index[e] * NR;
#pragma GCC unroll 16
                for (int g = 0; g < G; g++) {
                    acc[g] = _mm512_add_ps(acc[g], _mm512_loadu_ps(group[g] + offset));
                }
            }
        } else {
            const float* ar = a + r * lda;
            for (int e = first; e < end; e++) {
                size_t offset = (size_t) index[e] * NR;
                __m512 v = _mm512_set1_ps(ar[index[e]]);
#pragma GCC unroll 16
                for (int g = 0; g < G; g++) {
                    acc[g] = _mm512_fmadd_ps(v, _mm512_loadu_ps(group[g] + offset), acc[g]);
                }
            }
        }
#pragma GCC unroll 16
        for (int g = 0; g < G; g++) {
            _mm512_mask_storeu_ps(cr + 16 * g, lanes[g], acc[g]);
        }
    }
}

template <int... G>
void sparseBlockOf(int groups, const float* a, long lda, int rows, const NonzeroLists& lists, int q,
                   const float* packed, int kFull, int c0, int width, float* c, long ldc,
                   std::integer_sequence<int, G...>) {
    ((groups == G + 1 ? sparseBlock<G + 1>(a, lda, rows, lists, q, packed, kFull, c0, width, c, ldc) : void()), ...);
}
#else
// sparseBlock in plain C, NR columns.
void sparseBlockGeneric(const float* a, long lda, int rows, const NonzeroLists& lists, int q, const float* packed,
                        int kFull, int c0, int width, float* c, long ldc) {
    const float* panel = packedAt(packed, kFull, c0);
    for (int r = 0; r < rows; r++) {
        const int* sr = lists.starts + (size_t) r * (lists.blocks + 1);
        const int* index = lists.index + (size_t) r * lists.k;
        if (q > 0 && sr[q + 1] == sr[q]) {
            continue;
        }
        const float* ar = a + r * lda;
        float* cr = c + r * ldc + c0;
        float acc[NR];
        for (int j = 0; j < NR; j++) {
            acc[j] = q > 0 && j < width ? cr[j] : 0.0f;
        }
        for (int e = sr[q]; e < sr[q + 1]; e++) {
            float v = ar[index[e]];
            const float* bi = panel + (size_t) index[e] * NR;
            for (int j = 0; j < NR; j++) {
                acc[j] = fmaf(v, bi[j], acc[j]);
            }
        }
        memcpy(cr, acc, (size_t) width * sizeof(float));
    }
}
#endif

// Fills the lists of NonzeroLists for the rows of A.
void nonzeros(const float* a, long lda, int rows, int k, int blocks, int* index, int* starts, char* ones) {
    for (int r = 0; r < rows; r++) {
        const float* ar = a + r * lda;
        int* ir = index + (size_t) r * k;
        int* sr = starts + (size_t) r * (blocks + 1);
        int nonzero = 0;
        bool allOnes = true;
        sr[0] = 0;  // also where k = 0 leaves one empty block
#if defined(__AVX512F__)
        const __m512i step = _mm512_set1_epi32(16);
        __m512i columns = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        for (int i = 0; i < k; i += 16) {
            if (i % SPARSE_DEPTH == 0) {
                sr[i / SPARSE_DEPTH] = nonzero;
            }
            __mmask16 valid = lanesBelow(k - i);
            __m512 values = _mm512_maskz_loadu_ps(valid, ar + i);
            __mmask16 on = _mm512_mask_cmp_ps_mask(valid, values, _mm512_setzero_ps(), _CMP_NEQ_UQ);
            allOnes = allOnes && _mm512_mask_cmp_ps_mask(on, values, _mm512_set1_ps(1.0f), _CMP_NEQ_UQ) == 0;
            // compressed in a register and stored whole (the lanes past the nonzeros are overwritten by the next
            // store or never read; LIST_SLACK): a compress with a memory destination is microcoded on Zen 4 and took
            // a quarter of the sparse product's time
            _mm512_storeu_si512(ir + nonzero, _mm512_maskz_compress_epi32(on, columns));
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
                allOnes = allOnes && ar[i] == 1.0f;
            }
        }
#endif
        sr[blocks] = nonzero;
        ones[r] = allOnes;
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
    thread_local std::vector<char> ones;
    int blocks = k == 0 ? 1 : (k + SPARSE_DEPTH - 1) / SPARSE_DEPTH;
    if (index.size() < (size_t) rows * k + LIST_SLACK) {
        index.resize((size_t) rows * k + LIST_SLACK);
    }
    if (starts.size() < (size_t) rows * (blocks + 1)) {
        starts.resize((size_t) rows * (blocks + 1));
    }
    if (ones.size() < (size_t) rows) {
        ones.resize(rows);
    }
    nonzeros(a, lda, rows, k, blocks, index.data(), starts.data(), ones.data());
    NonzeroLists lists{index.data(), starts.data(), ones.data(), k, blocks};
    for (int c0 = 0; c0 < cols; c0 += SPARSE_CHUNK) {
        int width = cols - c0 < SPARSE_CHUNK ? cols - c0 : SPARSE_CHUNK;
        for (int q = 0; q < blocks; q++) {
#if defined(__AVX512F__)
            sparseBlockOf((width + 15) / 16, a, lda, rows, lists, q, packed, kFull, c0, width, c, ldc,
                          std::make_integer_sequence<int, SPARSE_CHUNK / 16>());
#else
            sparseBlockGeneric(a, lda, rows, lists, q, packed, kFull, c0, width, c, ldc);
#endif
        }
    }
}

// Densities of A (nonzeros per entry) at or below which the sparse form runs. With AVX-512 the blocked sparse form
// costs about 0.47 of the dense one at density 0.27 (the CD-25 RBM's hidden states), 0.62 at 0.35, 0.83 at 0.45 and
// 1.0 at 0.55 (Zen 4, 784×500, 64-row tiles), so it runs up to 0.5; elsewhere its loop is plain C and the crossover
// lower.
#if defined(__AVX512F__)
constexpr double SPARSE_DENSITY = 0.5;
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
