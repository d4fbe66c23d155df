// Interface between the kernel registry and the launcher of the host emulation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda_emu.h"

namespace logz_emu {

// Calls one kernel with the arguments of a cuLaunchKernel-style void** array.
struct KernelInvoker {
    void* function;
    void (*invoke)(void* function, void** args);
};

// Runs every block of the grid; returns an empty string or a message saying why the launch failed.
// `kinds` has one character per argument (emu_registry.h), so failures can name pointer arguments.
std::string launch(const char* kernel, const char* kinds, const KernelInvoker& invoker, void** args, dim3 grid,
                   dim3 block, size_t shared_bytes);

// Strict mode: shuffles that read inactive lanes abort the launch.
void set_strict(bool strict);

// Check modes (cuda_emu.h): race finding and memcheck, each off by default.
constexpr int kCheckRaces = 1;
constexpr int kCheckMemory = 2;
constexpr int kCheckProfile = 4;
void set_checks(int checks);
int checks();

// Device memory: in memcheck mode each buffer ends at a guard page and a freed one stays inaccessible
// until the quarantine is full; otherwise plain aligned host memory. Returns nullptr when out of memory.
void* device_allocate(size_t bytes);
void device_release(void* pointer);

// Host threads that run blocks concurrently.
int host_threads();

// Inside a launch: "kernel K, block (x,y,z) thread (x,y,z)" of the running thread; else empty.
std::string current_site();

// The running launch's pointer arguments that point into [begin, end), as "kernel argument 2, 5".
std::string pointer_arguments(uintptr_t begin, uintptr_t end);

// Profile mode (emu_profile.cpp): on only in the library built for it (profile_built), where the kernel code is
// instrumented. The runtime reports launches, blocks, barrier intervals and buffers; profile_take returns one line
// per launch since the last call.
bool profile_built();
void profile_allocated(void* pointer, size_t bytes);
void profile_released(void* pointer);
void profile_launch_begin(const char* kernel, dim3 grid, dim3 block, size_t shared_bytes);
void profile_block_begin(int threads);
void profile_interval_end(int threads);
void profile_block_end(int threads);
void profile_worker_done();
void profile_launch_end();
void profile_shared(const void* address, size_t bytes, uintptr_t site);
std::string profile_take();

// Installs the fault handler of memcheck mode (emu_memcheck.cpp); idempotent.
void install_memcheck();

}  // namespace logz_emu
