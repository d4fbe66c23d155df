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

// Installs the fault handler of memcheck mode (emu_memcheck.cpp); idempotent.
void install_memcheck();

}  // namespace logz_emu
