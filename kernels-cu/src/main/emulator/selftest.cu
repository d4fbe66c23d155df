// Kernels that exercise the host emulation itself (compiled into the emulator only, never into the
// GPU images): barriers, shuffles, ballots, dynamic shared memory, and the failures strict mode and
// the deadlock detector must catch.
#include "common.cuh"

// out[block·bd + t] = Σ over the block of (t + 1), through shared memory and __syncthreads.
extern "C" __global__ void logz_selftest_block_sum(int* out) {
    __shared__ logz_shared<double[32]> scratch;
    double total = logz_block_reduce<logz_sum>((double) (threadIdx.x + 1), scratch);
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int) total;
}

// out[0] = the maximum of in[0, blockDim.x) by logz_block_reduce. The warp maxima must stay doubles:
// while the absent warps' -inf was the float -INFINITY, `lane < warps ? scratch[lane] : -INFINITY`
// had type float in the emulator (a checked shared element converts to float as readily as to
// double), and the block maximum was rounded to float there but not on the GPU.
extern "C" __global__ void logz_selftest_block_max(const double* in, double* out) {
    __shared__ logz_shared<double[32]> scratch;
    double max = logz_block_reduce<logz_max>(in[threadIdx.x], scratch);
    if (threadIdx.x == 0) {
        out[0] = max;
    }
}

// out[t] = value of lane (lane + 1) mod 32 after __shfl_sync, and a ballot of odd lanes.
extern "C" __global__ void logz_selftest_shuffle(int* out, unsigned int* ballot) {
    int lane = threadIdx.x & 31;
    out[threadIdx.x] = __shfl_sync(LOGZ_FULL_MASK, (int) threadIdx.x * 10, (lane + 1) & 31);
    unsigned int bits = __ballot_sync(LOGZ_FULL_MASK, lane & 1);
    if (threadIdx.x == 0) {
        ballot[0] = bits;
    }
}

// Reverses the block's values through dynamic shared memory.
extern "C" __global__ void logz_selftest_dynamic_shared(const float* in, float* out) {
    LOGZ_DYNAMIC_SHARED(float, buffer);
    buffer[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

// Lanes 0..15 shuffle with a half mask and read lane 20, which is not in it (strict mode must abort).
extern "C" __global__ void logz_selftest_inactive_read(int* out) {
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        out[threadIdx.x] = __shfl_sync(0x0000ffffu, lane, 20);
    }
}

// Half a warp shuffles with the full mask while the other half waits at a block barrier: neither can
// proceed (the deadlock detector must report it). Threads that exit count as arrived at barriers, as
// on the hardware, so a barrier skipped by finished threads is not a deadlock.
extern "C" __global__ void logz_selftest_deadlock(int* out) {
    if ((threadIdx.x & 31) < 16) {
        out[threadIdx.x] = __shfl_sync(LOGZ_FULL_MASK, (int) threadIdx.x, 0);
    } else {
        __syncthreads();
    }
}

// Lane 1 writes shared memory and lane 0 reads it after a shuffle, which orders no memory: a race the
// race mode must report (only __syncwarp would order the two).
extern "C" __global__ void logz_selftest_shuffle_is_no_fence(int* out) {
    __shared__ logz_shared<int[32]> slot;
    int lane = threadIdx.x & 31;
    if (lane == 1) {
        slot[0] = 7;
    }
    int from = __shfl_sync(LOGZ_FULL_MASK, lane, 0);
    if (lane == 0) {
        out[0] = slot[0] + from;
    }
}

// Thread 0 returns at once, the others pass two barriers; every thread counts its runs of the kernel
// body, so out[0] = blockDim.x unless a finished thread is started again.
extern "C" __global__ void logz_selftest_early_exit(int* out) {
    atomicAdd(out, 1);
    if (threadIdx.x == 0) {
        return;
    }
    __syncthreads();
    __syncthreads();
}

// The profile mode's known answers (EmulatorProfileTest). out[i] = in[i·stride] for i < n: stride 1 is coalesced
// (4 sectors per warp request, all needed), stride 2 touches twice the sectors its bytes need (loads 50% efficient,
// stores 100%).
extern "C" __global__ void logz_selftest_strided_copy(const float* in, float* out, int stride, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i * stride];
    }
}

// Lane t of a 32-thread block writes shared word t·stride, then reads it back: stride 1 is conflict-free, stride
// 32 puts every lane on bank 0 (32-way). Odd lanes then take a branch the even ones skip (divergence).
extern "C" __global__ void logz_selftest_banks(float* out, int stride) {
    __shared__ logz_shared<float[32 * 32]> words;
    int t = threadIdx.x;
    words[t * stride] = (float) t;
    __syncthreads();
    float v = words[t * stride];
    if (t & 1) {
        v = v * 3.0f + 1.0f;
    }
    out[t] = v;
}
