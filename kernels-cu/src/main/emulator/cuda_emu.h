// Host emulation of the CUDA subset the logz kernels use, so that g++ compiles the .cu sources
// unchanged (DESIGN §7). Each CUDA thread runs as a fiber (created with ucontext, switched with
// _setjmp/_longjmp); __syncthreads is a barrier among the fibers of a block; warp shuffles exchange
// values through per-warp slots between two warp barriers; blocks run one after another on each of a
// few host threads. In strict mode a shuffle that reads a lane outside its mask, or a warp operation
// whose mask names an exited lane, aborts the launch with a message.
//
// Check modes (emu_runtime.h, set_checks): profile mode (emu_profile.cpp) counts what a GPU profiler would; in race mode the threads of a block run in a random order
// between barriers, and every shared-memory access goes through logz_shared's checked references to a
// detector that remembers, per address, the threads that wrote and read it since the last barrier; an
// access from another thread in the same barrier interval that conflicts with one of them (a write
// against anything, a read against a write) aborts the launch naming kernel, block, threads and
// address. In memcheck mode device buffers sit between guard pages and freed ones stay unmapped for a
// while, so an out-of-bounds or use-after-free access of global memory aborts the launch naming
// kernel, thread, buffer and offset.
//
// Include before the kernel sources (emu_kernels.cpp does).
#pragma once

#define LOGZ_HOST_EMULATION 1

#include <cstddef>

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

// CUDA's vector type: 16 bytes, 16-aligned, so that a copy is one 16-byte access as on the device.
struct alignas(16) float4 {
    float x, y, z, w;
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
size_t dynamic_shared_bytes();
[[noreturn]] void fail(const char* message);

// Shared-memory checks (race and profile modes): whether accesses are reported, the report, and the failure
// of an index outside its array.
extern thread_local bool shared_checks;
void shared_access(const void* address, bool write, size_t bytes);
[[noreturn]] void shared_index_failure(long long index, long long extent);

// A checked reference to one shared-memory element: reads and writes are reported to the detector.
template <typename T>
class SharedRef {
public:
    explicit SharedRef(T* element) : element_(element) {
    }

    operator T() const {
        if (shared_checks) {
            shared_access(element_, false, sizeof(T));
        }
        return *element_;
    }

    SharedRef& operator=(T value) {
        if (shared_checks) {
            shared_access(element_, true, sizeof(T));
        }
        *element_ = value;
        return *this;
    }

    SharedRef& operator=(const SharedRef& other) {
        return *this = static_cast<T>(other);
    }

    SharedRef& operator+=(T value) {
        return *this = static_cast<T>(*this) + value;
    }

private:
    T* element_;
};

template <typename T, size_t N>
class SharedArrayView;

// The checked view of one element: a reference for scalars, a view for rows of multi-dimensional arrays.
template <typename T>
inline SharedRef<T> shared_element(T& element) {
    return SharedRef<T>(&element);
}

template <typename T, size_t N>
inline SharedArrayView<T, N> shared_element(T (&row)[N]) {
    return SharedArrayView<T, N>(row);
}

inline void check_shared_index(long long index, long long extent) {
    if (shared_checks && (index < 0 || index >= extent)) {
        shared_index_failure(index, extent);
    }
}

template <typename T, size_t N>
class SharedArrayView {
public:
    explicit SharedArrayView(T* data) : data_(data) {
    }

    auto operator[](long long index) const {
        check_shared_index(index, (long long) N);
        return shared_element(data_[index]);
    }

private:
    T* data_;
};

// Storage of a __shared__ array with checked indexing (logz_shared<T[N]...> in the kernels).
template <typename T>
class Shared;

template <typename T, size_t N>
class Shared<T[N]> {
public:
    auto operator[](long long index) {
        check_shared_index(index, (long long) N);
        return shared_element(data_[index]);
    }

private:
    T data_[N];
};

// Dynamic shared memory with checked indexing.
template <typename T>
class SharedPointer {
public:
    SharedPointer(T* data, long long extent) : data_(data), extent_(extent) {
    }

    SharedRef<T> operator[](long long index) const {
        check_shared_index(index, extent_);
        return SharedRef<T>(data_ + index);
    }

private:
    T* data_;
    long long extent_;
};

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
#define LOGZ_DYNAMIC_SHARED(T, name)                                                   \
    logz_emu::SharedPointer<T> name(reinterpret_cast<T*>(logz_emu::dynamic_shared()), \
                                    (long long) (logz_emu::dynamic_shared_bytes() / sizeof(T)))

// __shared__ logz_shared<T[N]> name: a shared array whose accesses the race detector sees.
template <typename T>
using logz_shared = logz_emu::Shared<T>;

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
