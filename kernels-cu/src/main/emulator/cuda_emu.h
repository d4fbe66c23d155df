// Host emulation of the CUDA subset the logz kernels use, so that g++ compiles the .cu sources
// unchanged (DESIGN §7). Each CUDA thread runs as a fiber (created with ucontext, switched with
// _setjmp/_longjmp); __syncthreads is a barrier among the fibers of a block; warp shuffles exchange
// values through per-warp slots between two warp barriers; blocks run one after another on each of a
// few host threads. In strict mode a shuffle that reads a lane outside its mask, or a warp operation
// whose mask names an exited lane, aborts the launch with a message.
//
// Include before the kernel sources (emu_kernels.cpp does).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__
#define __launch_bounds__(...)
// one copy per block: blocks of one host thread run one at a time
#define __shared__ static thread_local

struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
};

namespace logz_emu {

struct ThreadState {
    dim3 thread_idx;
    int linear;  // x + y·bx + z·bx·by
};

extern thread_local ThreadState* current_thread;
extern thread_local dim3 current_block;
extern thread_local dim3 current_block_dim;
extern thread_local dim3 current_grid_dim;

void syncthreads();
void syncwarp(unsigned int mask);
uint64_t warp_exchange(unsigned int mask, uint64_t value, int source_lane);
unsigned int warp_ballot(unsigned int mask, int predicate);
void* dynamic_shared();
[[noreturn]] void fail(const char* message);

template <typename T>
inline T shuffle(unsigned int mask, T value, int source_lane) {
    static_assert(sizeof(T) <= 8, "shuffles move at most 8 bytes");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    uint64_t out = warp_exchange(mask, bits, source_lane);
    T result;
    std::memcpy(&result, &out, sizeof(T));
    return result;
}

inline int lane_id() {
    return current_thread->linear & 31;
}

}  // namespace logz_emu

#define threadIdx (logz_emu::current_thread->thread_idx)
#define blockIdx (logz_emu::current_block)
#define blockDim (logz_emu::current_block_dim)
#define gridDim (logz_emu::current_grid_dim)
#define __syncthreads() logz_emu::syncthreads()
#define LOGZ_DYNAMIC_SHARED(T, name) T* name = reinterpret_cast<T*>(logz_emu::dynamic_shared())

inline void __syncwarp(unsigned int mask = 0xffffffffu) {
    logz_emu::syncwarp(mask);
}

// Round-to-nearest double arithmetic that the device compiler may not contract into an FMA; the host
// build never contracts (-ffp-contract is off without FMA in the target), so plain operators match.
inline double __dmul_rn(double a, double b) {
    return a * b;
}

inline double __dadd_rn(double a, double b) {
    return a + b;
}

inline unsigned int __umulhi(unsigned int a, unsigned int b) {
    return (unsigned int) (((unsigned long long) a * b) >> 32);
}

template <typename T>
inline T __shfl_sync(unsigned int mask, T value, int source_lane, int width = 32) {
    int lane = logz_emu::lane_id();
    int base = lane & ~(width - 1);
    return logz_emu::shuffle(mask, value, base + (source_lane & (width - 1)));
}

template <typename T>
inline T __shfl_xor_sync(unsigned int mask, T value, int lane_mask, int width = 32) {
    int lane = logz_emu::lane_id();
    int source = lane ^ lane_mask;
    if ((source & ~(width - 1)) != (lane & ~(width - 1))) {
        source = lane;
    }
    return logz_emu::shuffle(mask, value, source);
}

template <typename T>
inline T __shfl_down_sync(unsigned int mask, T value, unsigned int delta, int width = 32) {
    int lane = logz_emu::lane_id();
    int source = lane + (int) delta;
    if ((source & ~(width - 1)) != (lane & ~(width - 1))) {
        source = lane;
    }
    return logz_emu::shuffle(mask, value, source);
}

template <typename T>
inline T __shfl_up_sync(unsigned int mask, T value, unsigned int delta, int width = 32) {
    int lane = logz_emu::lane_id();
    int source = lane - (int) delta;
    if (source < (lane & ~(width - 1))) {
        source = lane;
    }
    return logz_emu::shuffle(mask, value, source);
}

inline unsigned int __ballot_sync(unsigned int mask, int predicate) {
    return logz_emu::warp_ballot(mask, predicate);
}

// Atomics on global memory: blocks may run on several host threads at once.
inline int atomicAdd(int* address, int value) {
    return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}

inline unsigned int atomicAdd(unsigned int* address, unsigned int value) {
    return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}

inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long value) {
    return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}

inline int atomicMax(int* address, int value) {
    int old = __atomic_load_n(address, __ATOMIC_SEQ_CST);
    while (old < value && !__atomic_compare_exchange_n(address, &old, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}

inline int atomicCAS(int* address, int compare, int value) {
    __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return compare;
}
