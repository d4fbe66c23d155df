// Lookup of the emulated kernels by name.
#pragma once

#include <string>

#include "emu_runtime.h"

namespace logz_emu {

struct KernelEntry {
    const char* name;
    std::string kinds;  // one character per parameter: i int32, l int64, f float, d double, p pointer
    KernelInvoker invoker;
};

const KernelEntry* find_kernel(const char* name);

// "name:kinds;" for every kernel.
std::string kernel_list();

}  // namespace logz_emu
