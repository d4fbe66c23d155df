// Interface between the kernel registry and the launcher of the host emulation.
#pragma once

#include <cstddef>

#include "cuda_emu.h"

namespace logz_emu {

// Calls one kernel with the arguments of a cuLaunchKernel-style void** array.
struct KernelInvoker {
    void* function;
    void (*invoke)(void* function, void** args);
};

// Runs every block of the grid; returns nullptr or a message saying why the launch failed.
const char* launch(const KernelInvoker& invoker, void** args, dim3 grid, dim3 block, size_t shared_bytes);

// Strict mode: shuffles that read inactive lanes abort the launch.
void set_strict(bool strict);

// Host threads that run blocks concurrently.
int host_threads();

}  // namespace logz_emu
