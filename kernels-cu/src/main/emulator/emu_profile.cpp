// Profile mode of the host emulation (DESIGN §7, "Kernel profiles"): what a GPU profiler would count, from every
// memory access and basic block of every emulated CUDA thread.
//
// build.sh compiles the kernel sources a second time with g++'s -fsanitize=thread instrumentation (only the compiler
// pass: no ThreadSanitizer runtime is linked) and -fsanitize-coverage=trace-pc, into liblogz_cuda_emu_profile.so. The
// compiler then calls __tsan_readN / __tsan_writeN before every load and store of kernel code and
// __sanitizer_cov_trace_pc at every basic block; this file defines those functions. Each records, for the running CUDA
// thread, the instruction (its return address) and the address; shared-memory accesses arrive from the checked
// references of cuda_emu.h (profile_shared). Loads and stores outside device buffers (the fibers' stacks, parameters)
// are not global memory and are dropped.
//
// A warp executes an instruction for all its active lanes at once; the emulator runs lanes one after another. So at
// every block barrier, and when a block ends, the n-th execution of an instruction by each lane of a warp is taken as
// one warp instruction whose active lanes are the lanes that executed it n times (SIMT with reconvergence at the
// instruction; exact for the loops and branches of these kernels, whose trip counts are uniform or end in a lane's
// exit). Per warp instruction:
//  - global load or store: the 32-byte sectors its lanes touch against the fewest that hold the bytes they ask for
//    (coalescing efficiency = fewest / touched; a broadcast is efficient);
//  - shared access: the most distinct 4-byte words any of the 32 banks serves (the wavefronts it takes; a broadcast of
//    one word costs nothing) over the fewest its distinct words need (ceil(words / 32)): the conflict degree, 1 for
//    consecutive 32-, 64- or 128-bit accesses;
//  - basic block: whether some lane of the warp is inactive (branch divergence).
// Each launch also counts the distinct sectors it touches: the bytes a DRAM would move with a cache as large as the
// data (the roofline's compulsory traffic).
#include <algorithm>
#include <cstdio>
#include <string>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "emu_runtime.h"

namespace logz_emu {
namespace {

enum Kind : uint8_t { kGlobal = 0, kShared = 1, kBlock = 2 };

struct Event {
    uintptr_t site;
    uintptr_t address;
    uint32_t bytes;
    Kind kind;
};

struct Stats {
    unsigned long long global_requests = 0;
    unsigned long long global_sectors = 0;
    unsigned long long global_min_sectors = 0;
    unsigned long long shared_requests = 0;
    unsigned long long shared_wavefronts = 0;
    unsigned long long shared_ideal = 0;
    unsigned long long shared_max_way = 0;
    unsigned long long blocks = 0;
    unsigned long long divergent_blocks = 0;

    void add(const Stats& o) {
        global_requests += o.global_requests;
        global_sectors += o.global_sectors;
        global_min_sectors += o.global_min_sectors;
        shared_requests += o.shared_requests;
        shared_wavefronts += o.shared_wavefronts;
        shared_ideal += o.shared_ideal;
        shared_max_way = std::max(shared_max_way, o.shared_max_way);
        blocks += o.blocks;
        divergent_blocks += o.divergent_blocks;
    }
};

// One host worker's recording: an event list per CUDA thread of the running block.
struct Worker {
    bool active = false;
    std::vector<std::vector<Event>> lanes;
    Stats stats;
    std::unordered_set<uintptr_t> sectors;
};

thread_local Worker* worker_profile = nullptr;

std::mutex mutex;
std::map<uintptr_t, size_t> buffers;                      // live device buffers: start -> bytes
std::vector<std::pair<uintptr_t, uintptr_t>> launch_buffers;  // the running launch's [start, end), sorted
std::string launch_kernel;
dim3 launch_grid, launch_block;
size_t launch_shared = 0;
Stats launch_stats;
std::unordered_set<uintptr_t> launch_sectors;
std::string records;

bool in_device(uintptr_t address) {
    auto it = std::upper_bound(launch_buffers.begin(), launch_buffers.end(), std::make_pair(address, UINTPTR_MAX));
    return it != launch_buffers.begin() && address < std::prev(it)->second;
}

void record(Kind kind, uintptr_t site, uintptr_t address, uint32_t bytes) {
    Worker* w = worker_profile;
    if (w == nullptr || !w->active || current_thread == nullptr) {
        return;
    }
    w->lanes[(size_t) current_thread->linear].push_back(Event{site, address, bytes, kind});
}

struct Key {
    uintptr_t site;
    uint32_t occurrence;
    Kind kind;

    bool operator==(const Key& o) const {
        return site == o.site && occurrence == o.occurrence && kind == o.kind;
    }
};

struct KeyHash {
    size_t operator()(const Key& k) const {
        return std::hash<uintptr_t>()(k.site * 31 + k.occurrence * 4 + k.kind);
    }
};

struct Group {
    unsigned int active = 0;
    std::vector<std::pair<uintptr_t, uint32_t>> accesses;
};

void global_instruction(const Group& g, Worker& w) {
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    for (const auto& a : g.accesses) {
        ranges.emplace_back(a.first, a.first + a.second);
    }
    std::sort(ranges.begin(), ranges.end());
    unsigned long long bytes = 0;
    uintptr_t covered = 0;
    std::vector<uintptr_t> sectors;
    for (const auto& r : ranges) {
        uintptr_t from = std::max(r.first, covered);
        if (r.second > from) {
            bytes += r.second - from;
        }
        covered = std::max(covered, r.second);
        for (uintptr_t s = r.first >> 5; s <= (r.second - 1) >> 5; s++) {
            sectors.push_back(s);
        }
    }
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    w.stats.global_requests++;
    w.stats.global_sectors += sectors.size();
    w.stats.global_min_sectors += (bytes + 31) / 32;
    w.sectors.insert(sectors.begin(), sectors.end());
}

void shared_instruction(const Group& g, Worker& w) {
    std::vector<uintptr_t> words;
    for (const auto& a : g.accesses) {
        for (uintptr_t word = a.first >> 2; word <= (a.first + a.second - 1) >> 2; word++) {
            words.push_back(word);
        }
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    unsigned int per_bank[32] = {};
    unsigned int wavefronts = 0;
    for (uintptr_t word : words) {
        wavefronts = std::max(wavefronts, ++per_bank[word % 32]);
    }
    // wider accesses need several wavefronts however they are laid out: the conflict is the excess over that
    unsigned int ideal = (unsigned int) ((words.size() + 31) / 32);
    w.stats.shared_requests++;
    w.stats.shared_wavefronts += wavefronts;
    w.stats.shared_ideal += ideal;
    w.stats.shared_max_way = std::max<unsigned long long>(w.stats.shared_max_way, (wavefronts + ideal - 1) / ideal);
}

}  // namespace

bool profile_built() {
#if defined(LOGZ_EMULATOR_PROFILE)
    return true;
#else
    return false;
#endif
}

// Buffers are tracked only in the profile library: the plain one takes no lock per allocation.
void profile_allocated(void* pointer, size_t bytes) {
    if (profile_built()) {
        std::lock_guard<std::mutex> lock(mutex);
        buffers[reinterpret_cast<uintptr_t>(pointer)] = bytes;
    }
}

void profile_released(void* pointer) {
    if (profile_built()) {
        std::lock_guard<std::mutex> lock(mutex);
        buffers.erase(reinterpret_cast<uintptr_t>(pointer));
    }
}

void profile_launch_begin(const char* kernel, dim3 grid, dim3 block, size_t shared_bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    launch_buffers.clear();
    for (const auto& b : buffers) {
        launch_buffers.emplace_back(b.first, b.first + b.second);
    }
    launch_kernel = kernel;
    launch_grid = grid;
    launch_block = block;
    launch_shared = shared_bytes;
    launch_stats = Stats();
    launch_sectors.clear();
}

void profile_block_begin(int threads) {
    if (worker_profile == nullptr) {
        worker_profile = new Worker();
    }
    Worker& w = *worker_profile;
    if ((int) w.lanes.size() < threads) {
        w.lanes.resize((size_t) threads);
    }
    w.active = true;
}

void profile_interval_end(int threads) {
    Worker& w = *worker_profile;
    for (int base = 0; base < threads; base += 32) {
        int lanes = std::min(32, threads - base);
        std::unordered_map<Key, Group, KeyHash> groups;
        for (int lane = 0; lane < lanes; lane++) {
            std::unordered_map<uintptr_t, uint32_t> executed;
            for (const Event& e : w.lanes[(size_t) (base + lane)]) {
                uint32_t n = executed[e.site * 4 + e.kind]++;
                Group& g = groups[Key{e.site, n, e.kind}];
                g.active |= 1u << lane;
                if (e.kind != kBlock) {
                    g.accesses.emplace_back(e.address, e.bytes);
                }
            }
            w.lanes[(size_t) (base + lane)].clear();
        }
        unsigned int all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        for (const auto& entry : groups) {
            switch (entry.first.kind) {
                case kGlobal:
                    global_instruction(entry.second, w);
                    break;
                case kShared:
                    shared_instruction(entry.second, w);
                    break;
                case kBlock:
                    w.stats.blocks++;
                    w.stats.divergent_blocks += entry.second.active != all;
                    break;
            }
        }
    }
}

void profile_block_end(int threads) {
    profile_interval_end(threads);
    worker_profile->active = false;
}

void profile_worker_done() {
    if (worker_profile == nullptr) {
        return;
    }
    std::lock_guard<std::mutex> lock(mutex);
    launch_stats.add(worker_profile->stats);
    launch_sectors.insert(worker_profile->sectors.begin(), worker_profile->sectors.end());
    worker_profile->stats = Stats();
    worker_profile->sectors.clear();
}

void profile_launch_end() {
    std::lock_guard<std::mutex> lock(mutex);
    const Stats& s = launch_stats;
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s\t%u,%u,%u\t%u,%u,%u\t%zu\t%llu\t%llu\t%llu\t%zu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\n",
                  launch_kernel.c_str(), launch_grid.x, launch_grid.y, launch_grid.z, launch_block.x, launch_block.y,
                  launch_block.z, launch_shared, s.global_requests, s.global_sectors, s.global_min_sectors,
                  launch_sectors.size(), s.shared_requests, s.shared_wavefronts, s.shared_ideal, s.shared_max_way,
                  s.blocks, s.divergent_blocks);
    records += line;
    launch_sectors.clear();
}

std::string profile_take() {
    std::lock_guard<std::mutex> lock(mutex);
    std::string out;
    out.swap(records);
    return out;
}

void profile_shared(const void* address, size_t bytes, uintptr_t site) {
    record(kShared, site, reinterpret_cast<uintptr_t>(address), (uint32_t) bytes);
}

}  // namespace logz_emu

#if defined(LOGZ_EMULATOR_PROFILE)
// The instrumentation's entry points (g++ -fsanitize=thread, -fsanitize-coverage=trace-pc), for the kernel code only.
namespace {
inline void global_access(void* address, uint32_t bytes, uintptr_t site) {
    using namespace logz_emu;
    uintptr_t a = reinterpret_cast<uintptr_t>(address);
    if (worker_profile != nullptr && worker_profile->active && in_device(a)) {
        record(kGlobal, site, a, bytes);
    }
}
}  // namespace

#define LOGZ_SITE reinterpret_cast<uintptr_t>(__builtin_return_address(0))
extern "C" {
void __tsan_init() {
}
void __tsan_func_entry(void*) {
}
void __tsan_func_exit() {
}
void __tsan_read1(void* p) {
    global_access(p, 1, LOGZ_SITE);
}
void __tsan_read2(void* p) {
    global_access(p, 2, LOGZ_SITE);
}
void __tsan_read4(void* p) {
    global_access(p, 4, LOGZ_SITE);
}
void __tsan_read8(void* p) {
    global_access(p, 8, LOGZ_SITE);
}
void __tsan_read16(void* p) {
    global_access(p, 16, LOGZ_SITE);
}
void __tsan_write1(void* p) {
    global_access(p, 1, LOGZ_SITE);
}
void __tsan_write2(void* p) {
    global_access(p, 2, LOGZ_SITE);
}
void __tsan_write4(void* p) {
    global_access(p, 4, LOGZ_SITE);
}
void __tsan_write8(void* p) {
    global_access(p, 8, LOGZ_SITE);
}
void __tsan_write16(void* p) {
    global_access(p, 16, LOGZ_SITE);
}
int __tsan_atomic32_fetch_add(volatile int* a, int v, int) {
    global_access((void*) a, 4, LOGZ_SITE);
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);
}
void __sanitizer_cov_trace_pc() {
    logz_emu::record(logz_emu::kBlock, LOGZ_SITE, 0, 0);
}
}
#endif
