// Batched Gibbs sampling of binary RBMs (DESIGN §5) with an inverse temperature per launch or per
// particle (`betas`, when not null, overrides `beta` row by row) and an active-visible count, so AIS,
// reverse AIS, simulated tempering and ARM's move step share it.
//
// Two paths compute the products. With cuBLAS, the host runs SGEMM and then the fused
// sigmoid-and-Bernoulli kernels logz_sample_hidden / logz_sample_visible. Without it, the tiled
// GEMM kernels below compute the product themselves, logz_gemm_bernoulli with the sampling fused into
// its epilogue. Both draw unit k of particle p from word k % 4 of Philox block (k / 4, p, step, tag)
// and compare in float32: hidden z = β·(u + b), visible z = (1-β)·a0 + β·(a + v), on when
// uniform < 1/(1 + e^-z), exactly as the CPU backend.
//
// Matrices are row-major: particles X (rows × N), hidden H (rows × Hn), W (N × Hn).
// Sampling kernels: any grid, blocks of LOGZ_BLOCK, one thread per four units of one particle, read and written as
// one 16-byte access wherever the rows and vectors are 16-byte aligned (N and H multiples of 4): coalesced.
// GEMM kernels: blocks of 16 × 16 threads, grid (ceil(cols / 64), ceil(rows / 16)); each thread
// computes four consecutive columns of one row; 16×16 + 16×65 floats of static shared memory.
// All kernels are deterministic.
#include "common.cuh"

#define LOGZ_TILE_ROWS 16
#define LOGZ_TILE_K 16
#define LOGZ_TILE_COLS 64

// x[r, i] ~ Bernoulli(prob[i]) for i < n (base-rate draws, stream BASE).
extern "C" __global__ void logz_sample_base(float* x, long long rows, int n, const float* prob, unsigned int k0,
                                            unsigned int k1, int step, long long first) {
    int groups = (n + 3) / 4;
    bool aligned = (n & 3) == 0 && logz_aligned16(x) && logz_aligned16(prob);
    LOGZ_FOR_EACH(e, rows * groups) {
        long long r = e / groups;
        int i0 = (int) (e - r * groups) * 4;
        int count = n - i0 < 4 ? n - i0 : 4;
        bool vector = aligned && count == 4;
        logz_philox_out u = logz_philox((unsigned int) (i0 / 4), (unsigned int) (first + r), (unsigned int) step,
                                        LOGZ_TAG_BASE, k0, k1);
        float p[4];
        float out[4];
        logz_load_units(prob + i0, count, vector, p);
        for (int q = 0; q < count; q++) {
            out[q] = logz_bernoulli(logz_uniform(u.w[q]), p[q]);
        }
        logz_store_units(x + r * n + i0, count, vector, out);
    }
}

// h[r, j] ~ Bernoulli(σ(β_r (field[r, j] + bias[j]))), bias may be null (field already holds it).
extern "C" __global__ void logz_sample_hidden(const float* field, int hn, long long rows, const float* bias,
                                              float beta, const double* betas, float* h, unsigned int k0,
                                              unsigned int k1, int step, long long first) {
    int groups = (hn + 3) / 4;
    bool aligned = (hn & 3) == 0 && logz_aligned16(field) && logz_aligned16(h) && (bias == 0 || logz_aligned16(bias));
    LOGZ_FOR_EACH(e, rows * groups) {
        long long r = e / groups;
        int j0 = (int) (e - r * groups) * 4;
        int count = hn - j0 < 4 ? hn - j0 : 4;
        bool vector = aligned && count == 4;
        logz_philox_out u = logz_philox((unsigned int) (j0 / 4), (unsigned int) (first + r), (unsigned int) step,
                                        LOGZ_TAG_HIDDEN, k0, k1);
        float rowBeta = logz_row_beta(betas, beta, r);
        float f[4];
        float b[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        float out[4];
        logz_load_units(field + r * hn + j0, count, vector, f);
        if (bias != 0) {
            logz_load_units(bias + j0, count, vector, b);
        }
        for (int q = 0; q < count; q++) {
            float z = rowBeta * (bias == 0 ? f[q] : f[q] + b[q]);
            out[q] = logz_bernoulli(logz_uniform(u.w[q]), logz_logistic(z));
        }
        logz_store_units(h + r * hn + j0, count, vector, out);
    }
}

// x[r, i] ~ Bernoulli(σ((1-β_r) a0[i] + β_r (a[i] + v[r, i]))) for i < active; rows of n floats. A group of four
// units goes as one 16-byte access when the rows and vectors allow it and all four are active.
extern "C" __global__ void logz_sample_visible(const float* v, int n, int active, long long rows, const float* a,
                                               const float* a0, float beta, const double* betas, float* x,
                                               unsigned int k0, unsigned int k1, int step, long long first) {
    int groups = (active + 3) / 4;
    bool aligned = (n & 3) == 0 && logz_aligned16(v) && logz_aligned16(x) && logz_aligned16(a) && logz_aligned16(a0);
    LOGZ_FOR_EACH(e, rows * groups) {
        long long r = e / groups;
        int i0 = (int) (e - r * groups) * 4;
        int count = active - i0 < 4 ? active - i0 : 4;
        bool vector = aligned && count == 4;
        logz_philox_out u = logz_philox((unsigned int) (i0 / 4), (unsigned int) (first + r), (unsigned int) step,
                                        LOGZ_TAG_VISIBLE, k0, k1);
        float rowBeta = logz_row_beta(betas, beta, r);
        float oneMinusBeta = 1.0f - rowBeta;
        float vs[4];
        float as[4];
        float bases[4];
        float out[4];
        logz_load_units(v + r * n + i0, count, vector, vs);
        logz_load_units(a + i0, count, vector, as);
        logz_load_units(a0 + i0, count, vector, bases);
        for (int q = 0; q < count; q++) {
            float z = oneMinusBeta * bases[q] + rowBeta * (as[q] + vs[q]);
            out[q] = logz_bernoulli(logz_uniform(u.w[q]), logz_logistic(z));
        }
        logz_store_units(x + r * n + i0, count, vector, out);
    }
}

// Accumulates the 1 × 4 strip (row, col0 .. col0+3) of A (rows × K, lda) · op(B) over the k-tiles,
// op(B) = B (K × cols, ldb) or, when transB, Bᵀ with B (cols × K, ldb). Out-of-range reads are zero.
// The block loads each B tile (LOGZ_TILE_K × LOGZ_TILE_COLS) with consecutive threads on consecutive addresses of B:
// along a row of the tile, or with transB along a row of B (a column of the tile), so every warp request is coalesced.
// The tile's rows are padded by one float: a transposed load's lanes then store a column into 16 different banks, and
// the product loop's reads (lane tx on columns 4tx .. 4tx+3) conflict at most 2-way. Which thread loads an element
// does not change any sum: each output still adds its k terms in order.
__device__ __forceinline__ void logz_gemm_strip(int rows, int cols, int K, const float* A, int lda, const float* B,
                                                int ldb, int transB, float acc[4]) {
    __shared__ logz_shared<float[LOGZ_TILE_ROWS][LOGZ_TILE_K]> as;
    __shared__ logz_shared<float[LOGZ_TILE_K][LOGZ_TILE_COLS + 1]> bs;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int t = ty * (int) blockDim.x + tx;
    int row = blockIdx.y * LOGZ_TILE_ROWS + ty;
    int colBase = blockIdx.x * LOGZ_TILE_COLS;
    for (int q = 0; q < 4; q++) {
        acc[q] = 0.0f;
    }
    for (int k0 = 0; k0 < K; k0 += LOGZ_TILE_K) {
        as[ty][tx] = row < rows && k0 + tx < K ? A[(long long) row * lda + k0 + tx] : 0.0f;
        for (int e = t; e < LOGZ_TILE_K * LOGZ_TILE_COLS; e += (int) (blockDim.x * blockDim.y)) {
            int kk = transB ? e % LOGZ_TILE_K : e / LOGZ_TILE_COLS;
            int cc = transB ? e / LOGZ_TILE_K : e % LOGZ_TILE_COLS;
            int c = colBase + cc;
            int k = k0 + kk;
            float value = 0.0f;
            if (c < cols && k < K) {
                value = transB ? B[(long long) c * ldb + k] : B[(long long) k * ldb + c];
            }
            bs[kk][cc] = value;
        }
        __syncthreads();
        for (int k = 0; k < LOGZ_TILE_K; k++) {
            float a = as[ty][k];
            for (int q = 0; q < 4; q++) {
                acc[q] += a * bs[k][tx * 4 + q];
            }
        }
        __syncthreads();
    }
}

// C (rows × cols, ldc) = A · op(B) + beta · C: the product of the no-cuBLAS path.
extern "C" __global__ void logz_gemm(int rows, int cols, int K, const float* A, int lda, const float* B, int ldb,
                                     int transB, float beta, float* C, int ldc) {
    float acc[4];
    logz_gemm_strip(rows, cols, K, A, lda, B, ldb, transB, acc);
    int row = blockIdx.y * LOGZ_TILE_ROWS + threadIdx.y;
    int c0 = blockIdx.x * LOGZ_TILE_COLS + threadIdx.x * 4;
    if (row >= rows || c0 >= cols) {
        return;
    }
    // the strip's four outputs as one 16-byte access where C's rows allow it (rbm_gibbs.cu's sampling kernels)
    int count = cols - c0 < 4 ? cols - c0 : 4;
    bool vector = count == 4 && (ldc & 3) == 0 && logz_aligned16(C);
    float* out = C + (long long) row * ldc + c0;
    float old[4];
    if (beta != 0.0f) {
        logz_load_units(out, count, vector, old);
    }
    for (int q = 0; q < count; q++) {
        acc[q] = beta == 0.0f ? acc[q] : acc[q] + beta * old[q];
    }
    logz_store_units(out, count, vector, acc);
}

// out (rows × cols, ldo) = Bernoulli(σ(z)), z = (offset ? offset[c] * (1-β_r) : 0) + β_r (bias[c] + (A · op(B))[r, c]):
// the product with the sampling fused into the epilogue. Columns are units of stream `tag`;
// `first` is the absolute row of row 0 for the Philox counter.
extern "C" __global__ void logz_gemm_bernoulli(int rows, int cols, int K, const float* A, int lda, const float* B,
                                               int ldb, int transB, const float* bias, const float* offset,
                                               float beta, const double* betas, float* out, int ldo, unsigned int k0,
                                               unsigned int k1, int step, int tag, long long first) {
    float acc[4];
    logz_gemm_strip(rows, cols, K, A, lda, B, ldb, transB, acc);
    int row = blockIdx.y * LOGZ_TILE_ROWS + threadIdx.y;
    int c0 = blockIdx.x * LOGZ_TILE_COLS + threadIdx.x * 4;
    if (row >= rows || c0 >= cols) {
        return;
    }
    logz_philox_out u = logz_philox((unsigned int) (c0 / 4), (unsigned int) (first + row), (unsigned int) step,
                                    (unsigned int) tag, k0, k1);
    float rowBeta = logz_row_beta(betas, beta, row);
    float oneMinusBeta = 1.0f - rowBeta;
    int count = cols - c0 < 4 ? cols - c0 : 4;
    bool vector = count == 4 && (ldo & 3) == 0 && logz_aligned16(out) && logz_aligned16(bias)
            && (offset == 0 || logz_aligned16(offset));
    float b[4];
    float o[4];
    float drawn[4];
    logz_load_units(bias + c0, count, vector, b);
    if (offset != 0) {
        logz_load_units(offset + c0, count, vector, o);
    }
    for (int q = 0; q < count; q++) {
        float z = rowBeta * (b[q] + acc[q]);
        if (offset != 0) {
            z = oneMinusBeta * o[q] + z;
        }
        drawn[q] = logz_bernoulli(logz_uniform(u.w[q]), logz_logistic(z));
    }
    logz_store_units(out + (long long) row * ldo + c0, count, vector, drawn);
}
