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

// Sum over the 32 lanes of a warp in a fixed butterfly order; every lane gets the result.
// Precondition: all 32 lanes call it.
__device__ __forceinline__ double logz_warp_sum(double v) {
#pragma unroll
    for (int offset = LOGZ_WARP / 2; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(LOGZ_FULL_MASK, v, offset);
    }
    return v;
}

// Maximum over a warp; every lane gets the result. Precondition: all 32 lanes call it.
__device__ __forceinline__ double logz_warp_max(double v) {
#pragma unroll
    for (int offset = LOGZ_WARP / 2; offset > 0; offset >>= 1) {
        v = fmax(v, __shfl_xor_sync(LOGZ_FULL_MASK, v, offset));
    }
    return v;
}

// Block-wide sum in a fixed order (warp butterflies, then warp 0 over the warp totals); every
// thread gets the result. Preconditions: all threads of the block call it; blockDim.x is a multiple
// of 32 and at most 1024; `scratch` is a shared logz_shared<double[32]>. The first barrier keeps a
// warp from overwriting scratch while another still reads the result of the previous reduction.
template <typename Scratch>
__device__ __forceinline__ double logz_block_sum(double v, Scratch& scratch) {
    int lane = threadIdx.x & (LOGZ_WARP - 1);
    int warp = threadIdx.x / LOGZ_WARP;
    v = logz_warp_sum(v);
    __syncthreads();
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    int warps = blockDim.x / LOGZ_WARP;
    if (warp == 0) {
        // only warp 0 reads the warp totals: a read from another warp could see scratch[0] already
        // overwritten with the block total (a race the emulator's detector found)
        double t = lane < warps ? scratch[lane] : 0.0;
        t = logz_warp_sum(t);
        if (lane == 0) {
            scratch[0] = t;
        }
    }
    __syncthreads();
    return scratch[0];
}

// Block-wide maximum; same preconditions as logz_block_sum.
template <typename Scratch>
__device__ __forceinline__ double logz_block_max(double v, Scratch& scratch) {
    int lane = threadIdx.x & (LOGZ_WARP - 1);
    int warp = threadIdx.x / LOGZ_WARP;
    v = logz_warp_max(v);
    __syncthreads();
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    int warps = blockDim.x / LOGZ_WARP;
    if (warp == 0) {
        // only warp 0 reads the warp totals: a read from another warp could see scratch[0] already
        // overwritten with the block total (a race the emulator's detector found)
        double t = lane < warps ? scratch[lane] : -INFINITY;
        t = logz_warp_max(t);
        if (lane == 0) {
            scratch[0] = t;
        }
    }
    __syncthreads();
    return scratch[0];
}
