// Shared helpers of the logz kernels: launch-shape conventions, checks, the float32 sampling
// arithmetic shared with the CPU backend, float64 log-space functions, and deterministic warp and
// block reductions (fixed tree order, no atomics).
//
// Conventions: every kernel walks its work with a grid-stride loop, so its results do not depend on
// the grid the launcher picks. Kernels that reduce per particle use one warp per particle (blocks of
// LOGZ_BLOCK threads = LOGZ_BLOCK / 32 particles). Pointers to rows are already offset to the first
// row; `first` is the absolute row of that first row, for Philox counters.
#pragma once

#include "philox.cuh"
#if defined(LOGZ_HOST_EMULATION) && defined(__SSE2__)
#include <immintrin.h>
#endif
#include "stream_tags.h"

// Shared arrays are declared `__shared__ logz_shared<T[N]> name;`: the type itself on the device, a
// checked array in the host emulation (cuda_emu.h), whose race detector sees every access.
#ifndef LOGZ_HOST_EMULATION
template <typename T>
using logz_shared = T;
#endif

#define LOGZ_BLOCK 256
#define LOGZ_WARP 32
#define LOGZ_FULL_MASK 0xffffffffu

// Grid-stride loop over [0, n).
#define LOGZ_FOR_EACH(i, n) \
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < (long long) (n); \
         i += (long long) gridDim.x * blockDim.x)

// Grid-stride loop of warps over [0, n): `item` is this warp's item, `lane` its lane.
#define LOGZ_FOR_EACH_WARP(item, lane, n)                                                             \
    const int lane = (int) (threadIdx.x & (LOGZ_WARP - 1));                                          \
    for (long long item = ((long long) blockIdx.x * blockDim.x + threadIdx.x) / LOGZ_WARP;            \
         item < (long long) (n); item += ((long long) gridDim.x * blockDim.x) / LOGZ_WARP)

// 1 / (1 + e^-z) in float32; saturates to exactly 0 or 1 and never yields NaN.
__device__ __forceinline__ float logz_logistic(float z) {
    return 1.0f / (1.0f + expf(-z));
}

// β of row r: betas[r] when a per-row vector is given, else the launch's beta.
__device__ __forceinline__ float logz_row_beta(const double* betas, float beta, long long r) {
    return betas != 0 ? (float) betas[r] : beta;
}

// Four consecutive floats as one 16-byte access, so that the lanes of a warp, each on its own four units, touch
// consecutive bytes (a coalesced request; four scalar accesses 16 bytes apart use a quarter of every sector they
// touch). p must be 16-byte aligned: logz_aligned16.
__device__ __forceinline__ bool logz_aligned16(const void* p) {
    return ((unsigned long long) p & 15u) == 0;
}

#if defined(LOGZ_HOST_EMULATION) && defined(__SSE2__)
// In the emulator one 16-byte SSE access each, so that its profile mode sees what the device does (g++ splits a
// float4 copy into four scalar accesses).
__device__ __forceinline__ void logz_load4(const float* p, float v[4]) {
    _mm_storeu_ps(v, _mm_load_ps(p));
}

__device__ __forceinline__ void logz_store4(float* p, const float v[4]) {
    _mm_store_ps(p, _mm_loadu_ps(v));
}
#else
__device__ __forceinline__ void logz_load4(const float* p, float v[4]) {
    float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x;
    v[1] = t.y;
    v[2] = t.z;
    v[3] = t.w;
}

__device__ __forceinline__ void logz_store4(float* p, const float v[4]) {
    float4 t;
    t.x = v[0];
    t.y = v[1];
    t.z = v[2];
    t.w = v[3];
    *reinterpret_cast<float4*>(p) = t;
}
#endif

// count (<= 4) consecutive floats: one 16-byte access when `vector` (p aligned, count 4), else one at a time.
__device__ __forceinline__ void logz_load_units(const float* p, int count, bool vector, float v[4]) {
    if (vector) {
        logz_load4(p, v);
    } else {
        for (int q = 0; q < count; q++) {
            v[q] = p[q];
        }
    }
}

__device__ __forceinline__ void logz_store_units(float* p, int count, bool vector, const float v[4]) {
    if (vector) {
        logz_store4(p, v);
    } else {
        for (int q = 0; q < count; q++) {
            p[q] = v[q];
        }
    }
}

// Each warp's tile of 32 rows × 32 columns in a LOGZ_BLOCK-thread block, rows padded by one element: the warp storing
// one row (lanes on consecutive columns) and a lane walking its own row both meet no bank conflict (for 4-byte T).
// Declare as `__shared__ logz_shared<T[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_WARP + 1]> tile;`.
template <typename T>
using logz_row_tiles = logz_shared<T[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_WARP + 1]>;

// Columns [c0, c0 + 32) below `width` of the rows r0, r0 + 1, ... below `rows` (at most 32) of a row-major matrix
// (`stride` elements a row) into the warp's tile, row i at tile[warp][i]: one row per request, coalesced, where a
// thread per row reading its own row touches a sector per element. Every lane of the warp calls it with the same r0
// and c0; it ends with __syncwarp, and the caller syncs again before the next call overwrites the tile.
template <typename T>
__device__ __forceinline__ void logz_stage_rows(const T* m, long long stride, long long r0, long long rows, int c0,
                                                int width, logz_row_tiles<T>& tile, int warp, int lane) {
    for (int i = 0; i < LOGZ_WARP && r0 + i < rows; i++) {
        if (c0 + lane < width) {
            tile[warp][i][lane] = m[(r0 + i) * stride + c0 + lane];
        }
    }
    __syncwarp();
}

// Each warp's tile of 32 rows × 16 columns in a LOGZ_BLOCK-thread block, rows padded by one element: for 8-byte T,
// where 32 columns would not fit 48 KiB. Declare as
// `__shared__ logz_shared<T[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_HALF_TILE + 1]> tile;`.
#define LOGZ_HALF_TILE 16
template <typename T>
using logz_half_tiles = logz_shared<T[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_HALF_TILE + 1]>;

// Columns [c0, c0 + 16) of rows r0 .. r0 + 31 of a row-major matrix m (`stride` elements a row) between m and the
// warp's tile, row i at tile[warp][i]: half a warp per row, lanes on consecutive addresses (two rows per request,
// coalesced); with the padding, both this and a lane's walk along its own row meet 2 wavefronts for doubles, the
// fewest they need. Skips rows at or past `rows`, columns at or past `width` and elements at or past `end` (a last row
// shorter than the rest). Every lane of the warp calls it with the same r0 and c0; the caller syncs the warp.
template <bool Load, typename M, typename T>
__device__ __forceinline__ void logz_stage_half_rows(M* m, long long stride, long long r0, long long rows, int c0,
                                                     int width, long long end, logz_half_tiles<T>& tile, int warp,
                                                     int lane) {
    for (int e = lane; e < LOGZ_WARP * LOGZ_HALF_TILE; e += LOGZ_WARP) {
        int i = e / LOGZ_HALF_TILE;
        int j = e % LOGZ_HALF_TILE;
        long long at = (r0 + i) * stride + c0 + j;
        if (r0 + i < rows && c0 + j < width && at < end) {
            if constexpr (Load) {
                tile[warp][i][j] = m[at];
            } else {
                m[at] = tile[warp][i][j];
            }
        }
    }
}

// Bernoulli outcome as 0/1 float: unit on when uniform < p (as the CPU backend).
__device__ __forceinline__ float logz_bernoulli(float uniform, float p) {
    return uniform < p ? 1.0f : 0.0f;
}

// log(1 + e^x) = max(x, 0) + log1p(e^-|x|) in float64.
__device__ __forceinline__ double logz_softplus(double x) {
    return fmax(x, 0.0) + log1p(exp(-fabs(x)));
}

// 1 / (1 + e^-x) in float64 without overflow.
__device__ __forceinline__ double logz_sigmoid(double x) {
    if (x >= 0.0) {
        return 1.0 / (1.0 + exp(-x));
    }
    double e = exp(x);
    return e / (1.0 + e);
}

// Operators of the warp and block reductions: combine(a, b) and the identity that stands in for the
// warps a block does not have (logz_max: T a floating type, identity -inf). The sum is associative
// only up to rounding; the reductions below fix the order, so every result is reproducible to the bit.
template <typename T>
struct logz_sum {
    __device__ __forceinline__ static T identity() { return (T) 0; }
    __device__ __forceinline__ static T combine(T a, T b) { return a + b; }
};

template <typename T>
struct logz_max {
    __device__ __forceinline__ static T identity() { return (T) -INFINITY; }
    __device__ __forceinline__ static T combine(T a, T b) { return fmax(a, b); }
};

// Op (logz_sum or logz_max) over the 32 lanes of a warp in a fixed butterfly order: at offsets 16, 8,
// 4, 2, 1 each lane combines its value with that of lane ^ offset; every lane gets the result.
// Deterministic (no atomics). Precondition: all 32 lanes call it.
template <template <typename> class Op, typename T>
__device__ __forceinline__ T logz_warp_reduce(T v) {
#pragma unroll
    for (int offset = LOGZ_WARP / 2; offset > 0; offset >>= 1) {
        v = Op<T>::combine(v, __shfl_xor_sync(LOGZ_FULL_MASK, v, offset));
    }
    return v;
}

// Op (logz_sum or logz_max) over all threads of the block in a fixed order: warp butterflies
// (logz_warp_reduce), then warp 0 over the warp totals, absent warps counting as Op's identity;
// every thread gets the result. Deterministic: the same values give the same bits whatever the
// timing (no atomics). Preconditions: all threads of the block call it; blockDim.x is a multiple of
// 32 and at most 1024; `scratch` is a shared logz_shared<T[32]>. The first barrier keeps a warp from
// overwriting scratch while another still reads the result of the previous reduction.
template <template <typename> class Op, typename T, typename Scratch>
__device__ __forceinline__ T logz_block_reduce(T v, Scratch& scratch) {
    int lane = threadIdx.x & (LOGZ_WARP - 1);
    int warp = threadIdx.x / LOGZ_WARP;
    v = logz_warp_reduce<Op>(v);
    __syncthreads();
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    int warps = blockDim.x / LOGZ_WARP;
    if (warp == 0) {
        // only warp 0 reads the warp totals: a read from another warp could see scratch[0] already
        // overwritten with the block total (a race the emulator's detector found)
        T t = lane < warps ? scratch[lane] : Op<T>::identity();
        t = logz_warp_reduce<Op>(t);
        if (lane == 0) {
            scratch[0] = t;
        }
    }
    __syncthreads();
    return scratch[0];
}
