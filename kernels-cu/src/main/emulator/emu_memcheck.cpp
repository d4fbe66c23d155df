// Device memory of the host emulation and the memcheck mode (cuda_emu.h).
//
// In memcheck mode every buffer is its own mapping: the data end exactly at a guard page that is
// never readable or writable, with a guard page before the first data page, so the first byte past
// the end faults (an access before the start faults only once it leaves the buffer's first page).
// A released buffer becomes inaccessible and stays mapped in a quarantine of bounded size, so late
// accesses to it fault too. The fault handler turns a fault inside one of these mappings, raised by a
// kernel thread, into a failed launch naming kernel, block, thread, buffer and offset; every other
// fault goes to the handler that was installed before (in a JVM, the JVM's own, which relies on
// SIGSEGV for null checks and safepoints).
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

#include "emu_runtime.h"

namespace logz_emu {
namespace {

// One guarded buffer. `begin` is nonzero while the slot is in use; the handler reads slots without
// a lock, so a slot is filled before its `begin` is published and emptied after it is cleared.
struct Region {
    std::atomic<uintptr_t> begin{0};
    uintptr_t map_begin = 0;
    size_t map_bytes = 0;
    size_t bytes = 0;
    unsigned long long id = 0;
    std::atomic<bool> released{false};
};

constexpr int kSlots = 1 << 15;
constexpr size_t kQuarantineBytes = size_t(1) << 30;

Region slots[kSlots];
// slots [0, high_water) have ever been used: scans stop there
std::atomic<int> high_water{0};
std::mutex table_mutex;
std::vector<int> quarantine;  // released slots, oldest first
size_t quarantined_bytes = 0;
unsigned long long next_id = 1;
struct sigaction previous_handler;
std::once_flag installed;

size_t page_size() {
    static const size_t page = (size_t) sysconf(_SC_PAGESIZE);
    return page;
}

// Unmaps the oldest quarantined buffer and frees its slot. Caller holds table_mutex.
void evict_oldest() {
    Region& r = slots[quarantine.front()];
    quarantine.erase(quarantine.begin());
    quarantined_bytes -= r.map_bytes;
    r.begin.store(0);
    munmap(reinterpret_cast<void*>(r.map_begin), r.map_bytes);
}

int free_slot() {
    for (int i = 0; i < kSlots; i++) {
        if (i >= high_water.load()) {
            high_water.store(i + 1);
            return i;
        }
        if (slots[i].begin.load() == 0) {
            return i;
        }
    }
    return -1;
}

void* guarded_allocate(size_t bytes) {
    size_t page = page_size();
    size_t data_pages = (bytes + page - 1) / page;
    size_t map_bytes = (data_pages + 2) * page;
    std::lock_guard<std::mutex> lock(table_mutex);
    int slot = free_slot();
    while (slot < 0 && !quarantine.empty()) {
        evict_oldest();
        slot = free_slot();
    }
    if (slot < 0) {
        return nullptr;
    }
    void* map = mmap(nullptr, map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        return nullptr;
    }
    char* data_end = static_cast<char*>(map) + (data_pages + 1) * page;
    if (mprotect(static_cast<char*>(map) + page, data_pages * page, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, map_bytes);
        return nullptr;
    }
    Region& r = slots[slot];
    r.map_begin = reinterpret_cast<uintptr_t>(map);
    r.map_bytes = map_bytes;
    r.bytes = bytes;
    r.id = next_id++;
    r.released.store(false);
    void* begin = data_end - bytes;
    r.begin.store(reinterpret_cast<uintptr_t>(begin));
    return begin;
}

// True when the pointer was a guarded buffer (now quarantined).
bool guarded_release(void* pointer) {
    uintptr_t p = reinterpret_cast<uintptr_t>(pointer);
    std::lock_guard<std::mutex> lock(table_mutex);
    for (int i = 0; i < high_water.load(); i++) {
        Region& r = slots[i];
        if (r.begin.load() == p && r.released.load()) {
            return true;  // released twice: the buffer stays quarantined (the Java owners close idempotently)
        }
        if (r.begin.load() == p && !r.released.load()) {
            r.released.store(true);
            mprotect(reinterpret_cast<void*>(r.map_begin), r.map_bytes, PROT_NONE);
            madvise(reinterpret_cast<void*>(r.map_begin), r.map_bytes, MADV_DONTNEED);
            quarantine.push_back(i);
            quarantined_bytes += r.map_bytes;
            while (quarantined_bytes > kQuarantineBytes) {
                evict_oldest();
            }
            return true;
        }
    }
    return false;
}

const Region* region_of(uintptr_t address) {
    int used = high_water.load();
    for (int i = 0; i < used; i++) {
        const Region& r = slots[i];
        if (r.begin.load() != 0 && address >= r.map_begin && address < r.map_begin + r.map_bytes) {
            return &r;
        }
    }
    return nullptr;
}

// Calls the handler installed before ours as the kernel would have: SIG_DFL and SIG_IGN first (whatever the
// flags), else the handler with its own signal mask (plus the signal unless it asked for SA_NODEFER).
void chain(int signal, siginfo_t* info, void* context) {
    if (previous_handler.sa_handler == SIG_DFL) {
        // the faulting instruction runs again under the default action and ends the process
        sigaction(signal, &previous_handler, nullptr);
        return;
    }
    if (previous_handler.sa_handler == SIG_IGN) {
        return;
    }
    sigset_t mask = previous_handler.sa_mask;
    if ((previous_handler.sa_flags & SA_NODEFER) == 0) {
        sigaddset(&mask, signal);
    }
    sigset_t saved;
    pthread_sigmask(SIG_SETMASK, &mask, &saved);
    if ((previous_handler.sa_flags & SA_SIGINFO) != 0) {
        previous_handler.sa_sigaction(signal, info, context);
    } else {
        previous_handler.sa_handler(signal);
    }
    pthread_sigmask(SIG_SETMASK, &saved, nullptr);
}

bool is_write(void* context) {
#if defined(__x86_64__)
    // bit 1 of the page-fault error code: the access was a write
    return (static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void) context;
    return false;
#endif
}

void on_fault(int signal, siginfo_t* info, void* context) {
    uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    const Region* r = region_of(address);
    std::string site = r != nullptr ? current_site() : std::string();
    if (site.empty()) {
        chain(signal, info, context);
        return;
    }
    uintptr_t begin = r->begin.load();
    long long offset = (long long) (address - begin);
    std::string what = offset < 0 ? "before its start" : offset >= (long long) r->bytes ? "past its end" : "inside it";
    std::string arguments = pointer_arguments(begin, begin + r->bytes);
    fail((site + ": " + (is_write(context) ? "write" : "read") + " at byte offset " + std::to_string(offset) + " of "
          + (r->released.load() ? "released " : "") + "buffer #" + std::to_string(r->id) + " (" + std::to_string(r->bytes)
          + " bytes" + (arguments.empty() ? "" : ", " + arguments) + "), " + (r->released.load() ? "after its release" : what))
             .c_str());
}

}  // namespace

void install_memcheck() {
    std::call_once(installed, [] {
        struct sigaction action;
        std::memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fault;
        // SA_NODEFER: a failed launch leaves the handler by a jump, not by returning
        action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(SIGSEGV, &action, &previous_handler);
    });
}

void* device_allocate(size_t bytes) {
    void* p = nullptr;
    if ((checks() & kCheckMemory) != 0) {
        p = guarded_allocate(bytes);
    } else if (posix_memalign(&p, 256, bytes) != 0) {
        p = nullptr;
    }
    if (p != nullptr) {
        profile_allocated(p, bytes);
    }
    return p;
}

void device_release(void* pointer) {
    if (pointer != nullptr) {
        profile_released(pointer);
    }
    if (pointer != nullptr && !guarded_release(pointer)) {
        std::free(pointer);
    }
}

}  // namespace logz_emu
