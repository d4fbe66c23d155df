// A command-line driver of the emulator for the mutation tests (engine-cuda EmulatorMutationTest),
// which compile it against deliberately broken copies of the kernel sources: runs a block reduction
// (logz_weight_summary, reduce.cu) and a grid-stride fill (logz_fill_f64, particles.cu) with the check
// modes given as the first argument (emu_runtime.h: 1 races, 2 memcheck), and prints what they
// computed or why a launch failed. Exit status 0 when both ran, 1 when a launch failed.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "emu_registry.h"
#include "emu_runtime.h"

namespace {

bool run(const char* name, void** args, unsigned int grid, unsigned int block) {
    const logz_emu::KernelEntry* entry = logz_emu::find_kernel(name);
    if (entry == nullptr) {
        std::printf("error: no kernel %s\n", name);
        return false;
    }
    dim3 g;
    g.x = grid;
    dim3 b;
    b.x = block;
    std::string error = logz_emu::launch(entry->name, entry->kinds.c_str(), entry->invoker, args, g, b, 0);
    if (!error.empty()) {
        std::printf("error: %s\n", error.c_str());
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    logz_emu::set_checks(argc > 1 ? std::atoi(argv[1]) : 0);
    long long n = 1000;
    double* lw = static_cast<double*>(logz_emu::device_allocate(sizeof(double) * n));
    double* summary = static_cast<double*>(logz_emu::device_allocate(sizeof(double) * 4));
    for (long long k = 0; k < n; k++) {
        lw[k] = -0.001 * (double) ((k * 7919) % 1000);
    }
    void* summary_args[] = {&lw, &n, &summary};
    if (!run("logz_weight_summary", summary_args, 1, 256)) {
        return 1;
    }
    std::printf("summary %.17g %.17g %.17g %.17g\n", summary[0], summary[1], summary[2], summary[3]);
    double value = 2.5;
    void* fill_args[] = {&lw, &n, &value};
    if (!run("logz_fill_f64", fill_args, 4, 256)) {
        return 1;
    }
    double total = 0;
    for (long long k = 0; k < n; k++) {
        total += lw[k];
    }
    std::printf("fill %.17g\n", total);
    logz_emu::device_release(lw);
    logz_emu::device_release(summary);
    return 0;
}
