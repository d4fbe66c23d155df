// The fiber scheduler behind cuda_emu.h and the launcher that runs a kernel's blocks.
//
// Each host worker owns a pool of fibers (one per CUDA thread of the largest block it has run),
// created once with makecontext and switched with _setjmp/_longjmp, which unlike swapcontext makes
// no system call. A fiber runs its thread of the current block until it finishes or waits at a
// barrier; the scheduler releases a block barrier when every live thread of the block waits at it,
// and a warp barrier when every lane of its mask waits. No thread ever runs while another of the same
// host worker does, so shared memory and warp slots need no locks.
//
// Race mode (cuda_emu.h) adds two things to the scheduler: ready threads run in a random order and
// each may be held back a round, so code that passes only under the in-order interleaving stops
// passing; and every shared access is checked against the others of its barrier interval. Barrier
// intervals are counted per block (block epoch, advanced when a block barrier releases) and per warp
// (warp epoch, advanced when a __syncwarp of the whole warp releases; the waits inside shuffles and
// ballots order no memory): two accesses of different threads are ordered when a block barrier lies
// between them, or when both threads are lanes of one warp and such a __syncwarp lies between them;
// otherwise a pair with a write in it is a race.
#include "emu_runtime.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <sys/mman.h>
#include <thread>
#include <ucontext.h>
#include <vector>

namespace logz_emu {

thread_local ThreadState* current_thread = nullptr;
thread_local dim3 current_block;
thread_local dim3 current_block_dim;
thread_local dim3 current_grid_dim;

namespace {

constexpr size_t kStackBytes = 256 * 1024;

enum class Status { Ready, BlockBarrier, WarpBarrier, Done };

struct Fiber {
    ucontext_t context;
    jmp_buf env;
    char* stack = nullptr;
    bool started = false;
    Status status = Status::Done;
    unsigned int warp_mask = 0;
    bool orders_memory = false;  // waits in __syncwarp (a memory fence for the warp), not inside a shuffle
    ThreadState state;
};

struct Launch {
    const char* kernel = nullptr;
    const char* kinds = nullptr;
    int checks = 0;
    const KernelInvoker* invoker = nullptr;
    void** args = nullptr;
    dim3 grid;
    dim3 block;
    size_t shared_bytes = 0;
};

bool strict_mode = false;
std::atomic<int> check_modes{0};
std::atomic<unsigned long long> launches{0};

// One shared-memory access: the thread (linear index) and the barrier epochs it happened in.
struct Access {
    int thread;
    unsigned int block_epoch;
    unsigned int warp_epoch;
};

// What the race detector remembers of one shared address in the current block.
struct Cell {
    uintptr_t address = 0;
    unsigned long long block = 0;  // the Cells::block it belongs to; older cells are free
    bool written = false;
    Access writer{};
    std::vector<Access> readers;
};

// An open-addressing table of cells, emptied for each block by advancing `block` (no clearing).
class Cells {
public:
    void next_block() {
        block_++;
        used_ = 0;
    }

    Cell& at(uintptr_t address) {
        if (2 * (used_ + 1) > table_.size()) {
            grow();
        }
        size_t mask = table_.size() - 1;
        for (size_t i = hash(address) & mask;; i = (i + 1) & mask) {
            Cell& c = table_[i];
            if (c.block != block_) {
                c.address = address;
                c.block = block_;
                c.written = false;
                c.readers.clear();
                used_++;
                return c;
            }
            if (c.address == address) {
                return c;
            }
        }
    }

private:
    static size_t hash(uintptr_t address) {
        return (size_t) ((address >> 2) * 0x9e3779b97f4a7c15ull >> 20);
    }

    void grow() {
        std::vector<Cell> old;
        old.swap(table_);
        table_.resize(old.empty() ? 4096 : 2 * old.size());
        size_t mask = table_.size() - 1;
        for (Cell& c : old) {
            if (c.block == block_) {
                size_t i = hash(c.address) & mask;
                while (table_[i].block == block_) {
                    i = (i + 1) & mask;
                }
                table_[i] = std::move(c);
            }
        }
    }

    std::vector<Cell> table_;
    unsigned long long block_ = 1;
    size_t used_ = 0;
};

// Per host worker.
struct Worker {
    std::vector<Fiber*> fibers;
    jmp_buf scheduler_env;
    ucontext_t scheduler_context;
    Fiber* running = nullptr;
    const Launch* launch = nullptr;
    int threads = 0;
    std::vector<uint64_t> warp_slots;
    std::vector<unsigned char> shared;
    const char* error = nullptr;
    std::string error_text;
    // race mode
    std::mt19937_64 order;
    unsigned int block_epoch = 0;
    std::vector<unsigned int> warp_epochs;
    Cells cells;
};

thread_local Worker* worker = nullptr;

void fiber_main(unsigned int high, unsigned int low);

void restart(Fiber* f);

Fiber* new_fiber() {
    Fiber* f = new Fiber();
    void* stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) {
        std::fprintf(stderr, "logz emulator: cannot map a fiber stack\n");
        std::abort();
    }
    f->stack = static_cast<char*>(stack);
    restart(f);
    return f;
}

// Gives a fiber a fresh context at the start of fiber_main (after a failed block left it mid-kernel).
void restart(Fiber* f) {
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = f->stack;
    f->context.uc_stack.ss_size = kStackBytes;
    f->context.uc_link = nullptr;
    uintptr_t self = reinterpret_cast<uintptr_t>(f);
    makecontext(&f->context, (void (*)()) fiber_main, 2, (unsigned int) (self >> 32), (unsigned int) self);
    f->started = false;
}

// Switches from the running fiber back to the scheduler; returns when the scheduler resumes it.
void yield() {
    Worker* w = worker;
    Fiber* f = w->running;
    if (!_setjmp(f->env)) {
        _longjmp(w->scheduler_env, 1);
    }
}

// The body of every fiber: run this thread of the current block, then wait for the next block.
void fiber_main(unsigned int high, unsigned int low) {
    Fiber* f = reinterpret_cast<Fiber*>((uintptr_t(high) << 32) | uintptr_t(low));
    for (;;) {
        Worker* w = worker;
        current_thread = &f->state;
        w->launch->invoker->invoke(w->launch->invoker->function, w->launch->args);
        f->status = Status::Done;
        yield();
    }
}

void resume(Worker* w, Fiber* f) {
    w->running = f;
    current_thread = &f->state;
    if (!_setjmp(w->scheduler_env)) {
        if (!f->started) {
            f->started = true;
            swapcontext(&w->scheduler_context, &f->context);
        } else {
            _longjmp(f->env, 1);
        }
    }
    w->running = nullptr;
}

// After a failed block: fibers stopped mid-kernel start from the top next time.
void abandon(Worker* w, int threads) {
    for (int t = 0; t < threads; t++) {
        if (w->fibers[t]->started) {
            restart(w->fibers[t]);
        }
        w->fibers[t]->status = Status::Done;
    }
}

// Runs one block on this host worker; returns an error message or nullptr.
const char* run_block(Worker* w, dim3 block_index) {
    const Launch& l = *w->launch;
    current_block = block_index;
    current_block_dim = l.block;
    current_grid_dim = l.grid;
    int threads = (int) (l.block.x * l.block.y * l.block.z);
    while ((int) w->fibers.size() < threads) {
        w->fibers.push_back(new_fiber());
    }
    w->threads = threads;
    w->warp_slots.assign((size_t) ((threads + 31) / 32) * 32, 0);
    if (w->shared.size() < l.shared_bytes) {
        w->shared.resize(l.shared_bytes);
    }
    bool races = (l.checks & kCheckRaces) != 0;
    bool profile = (l.checks & kCheckProfile) != 0;
    shared_checks = races || profile;
    if (profile) {
        profile_block_begin(threads);
    }
    if (races) {
        w->order.seed(launches.load() * 0x9e3779b97f4a7c15ull
                      ^ ((unsigned long long) block_index.z << 42 | (unsigned long long) block_index.y << 21 | block_index.x));
        w->cells.next_block();
        w->block_epoch = 0;
        w->warp_epochs.assign((size_t) (threads + 31) / 32, 0);
    }
    for (int t = 0; t < threads; t++) {
        Fiber* f = w->fibers[t];
        f->status = Status::Ready;
        f->state.linear = t;
        f->state.thread_idx.x = t % l.block.x;
        f->state.thread_idx.y = (t / l.block.x) % l.block.y;
        f->state.thread_idx.z = t / (l.block.x * l.block.y);
    }
    w->error = nullptr;
    std::vector<int> order(threads);
    int done = 0;
    while (done < threads) {
        bool progressed = false;
        int ready = 0;
        for (int t = 0; t < threads; t++) {
            if (w->fibers[t]->status == Status::Ready) {
                order[ready++] = t;
            }
        }
        if (races) {
            std::shuffle(order.begin(), order.begin() + ready, w->order);
        }
        for (int i = 0; i < ready; i++) {
            // in race mode every thread but the first of the round may wait for a later round
            if (races && i > 0 && (w->order() & 1u) != 0) {
                continue;
            }
            resume(w, w->fibers[order[i]]);
            progressed = true;
            if (w->error != nullptr) {
                abandon(w, threads);
                if (profile) {
                    profile_block_end(threads);
                }
                return w->error;
            }
        }
        done = 0;
        int live = 0;
        int at_barrier = 0;
        for (int t = 0; t < threads; t++) {
            Status s = w->fibers[t]->status;
            done += s == Status::Done;
            live += s != Status::Done;
            at_barrier += s == Status::BlockBarrier;
        }
        if (live > 0 && at_barrier == live) {
            // finished threads stay finished: they count as arrived, as on the hardware
            for (int t = 0; t < threads; t++) {
                if (w->fibers[t]->status == Status::BlockBarrier) {
                    w->fibers[t]->status = Status::Ready;
                }
            }
            w->block_epoch++;
            if (profile) {
                profile_interval_end(threads);
            }
            progressed = true;
        }
        for (int base = 0; base < threads; base += 32) {
            unsigned int waiting = 0;
            unsigned int mask = 0;
            for (int lane = 0; lane < 32 && base + lane < threads; lane++) {
                Fiber* f = w->fibers[base + lane];
                if (f->status == Status::WarpBarrier) {
                    waiting |= 1u << lane;
                    mask = f->warp_mask;
                }
            }
            if (waiting != 0 && (waiting & mask) == mask) {
                bool fence = false;
                for (int lane = 0; lane < 32; lane++) {
                    if ((waiting & mask) >> lane & 1u) {
                        Fiber* f = w->fibers[base + lane];
                        fence |= f->orders_memory;
                        f->status = Status::Ready;
                    }
                }
                // only a __syncwarp of the whole warp orders its lanes' shared accesses for the detector: a
                // shuffle orders no memory, and a partial mask leaves the other lanes unordered
                unsigned int whole = threads - base >= 32 ? 0xffffffffu : (1u << (threads - base)) - 1;
                if (races && fence && (mask & whole) == whole) {
                    w->warp_epochs[base / 32]++;
                }
                progressed = true;
            } else if (waiting != 0 && strict_mode) {
                for (int lane = 0; lane < 32; lane++) {
                    if ((mask >> lane & 1u) && (base + lane >= threads || w->fibers[base + lane]->status == Status::Done)) {
                        abandon(w, threads);
                        if (profile) {
                            profile_block_end(threads);
                        }
                        return "warp operation whose mask names an exited or absent lane";
                    }
                }
            }
        }
        if (!progressed && done < threads) {
            abandon(w, threads);
            if (profile) {
                profile_block_end(threads);
            }
            return "deadlock: a barrier that not every thread of the block reaches";
        }
    }
    if (profile) {
        profile_block_end(threads);
    }
    return nullptr;
}

// A pool of host workers that run the blocks of a launch.
class Pool {
public:
    Pool() {
        const char* env = std::getenv("LOGZ_EMULATOR_THREADS");
        int n = env != nullptr ? std::atoi(env) : (int) std::thread::hardware_concurrency();
        size_ = n < 1 ? 1 : (n > 16 ? 16 : n);
        for (int i = 1; i < size_; i++) {
            threads_.emplace_back([this] { loop(); });
        }
    }

    int size() const {
        return size_;
    }

    const char* run(const Launch& launch) {
        std::unique_lock<std::mutex> lock(mutex_);
        launch_ = &launch;
        next_block_.store(0);
        error_ = nullptr;
        pending_ = size_ - 1;
        generation_++;
        lock.unlock();
        start_.notify_all();
        work();
        lock.lock();
        finished_.wait(lock, [this] { return pending_ == 0; });
        launch_ = nullptr;
        return error_;
    }

private:
    void loop() {
        unsigned long seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                start_.wait(lock, [&] { return generation_ != seen; });
                seen = generation_;
            }
            work();
            std::lock_guard<std::mutex> lock(mutex_);
            if (--pending_ == 0) {
                finished_.notify_all();
            }
        }
    }

    void work() {
        if (worker == nullptr) {
            worker = new Worker();
        }
        const Launch& l = *launch_;
        worker->launch = &l;
        long long blocks = (long long) l.grid.x * l.grid.y * l.grid.z;
        for (long long b = next_block_.fetch_add(1); b < blocks; b = next_block_.fetch_add(1)) {
            dim3 index;
            index.x = (unsigned int) (b % l.grid.x);
            index.y = (unsigned int) ((b / l.grid.x) % l.grid.y);
            index.z = (unsigned int) (b / ((long long) l.grid.x * l.grid.y));
            const char* error = run_block(worker, index);
            if (error != nullptr) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (error_ == nullptr) {
                    error_ = error;
                }
                next_block_.store(blocks);
                break;
            }
        }
        if ((l.checks & kCheckProfile) != 0) {
            profile_worker_done();
        }
    }

    int size_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable finished_;
    const Launch* launch_ = nullptr;
    std::atomic<long long> next_block_{0};
    const char* error_ = nullptr;
    int pending_ = 0;
    unsigned long generation_ = 0;
};

Pool& pool() {
    static Pool* p = new Pool();
    return *p;
}

std::mutex launch_mutex;

}  // namespace

void syncthreads() {
    worker->running->status = Status::BlockBarrier;
    yield();
}

namespace {

void warp_wait(unsigned int mask, bool orders_memory) {
    Fiber* f = worker->running;
    f->status = Status::WarpBarrier;
    f->warp_mask = mask;
    f->orders_memory = orders_memory;
    yield();
}

}  // namespace

void syncwarp(unsigned int mask) {
    warp_wait(mask, true);
}

uint64_t warp_exchange(unsigned int mask, uint64_t value, int source_lane) {
    Worker* w = worker;
    int lane = current_thread->linear & 31;
    int base = current_thread->linear & ~31;
    if (strict_mode && !(mask >> lane & 1u)) {
        fail("a lane outside the mask calls a warp shuffle");
    }
    w->warp_slots[base + lane] = value;
    warp_wait(mask, false);
    if (!(mask >> source_lane & 1u)) {
        if (strict_mode) {
            fail("a warp shuffle reads an inactive lane");
        }
    }
    uint64_t result = w->warp_slots[base + source_lane];
    warp_wait(mask, false);
    return result;
}

unsigned int warp_ballot(unsigned int mask, int predicate) {
    Worker* w = worker;
    int lane = current_thread->linear & 31;
    int base = current_thread->linear & ~31;
    w->warp_slots[base + lane] = predicate != 0;
    warp_wait(mask, false);
    unsigned int bits = 0;
    for (int l = 0; l < 32; l++) {
        if ((mask >> l & 1u) && w->warp_slots[base + l] != 0) {
            bits |= 1u << l;
        }
    }
    warp_wait(mask, false);
    return bits;
}

void* dynamic_shared() {
    return worker->shared.data();
}

void fail(const char* message) {
    Worker* w = worker;
    w->error_text = message;
    w->error = w->error_text.c_str();
    w->running->status = Status::Done;
    yield();
    std::abort();  // not reached: a failed block is never resumed
}

namespace {

std::string dim_text(dim3 d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string thread_text(int linear) {
    dim3 b = current_block_dim;
    dim3 t;
    t.x = linear % b.x;
    t.y = (linear / b.x) % b.y;
    t.z = linear / (b.x * b.y);
    return dim_text(t);
}

// "kernel K, block (x,y,z)": where a failure happened.
std::string where() {
    return std::string("kernel ") + worker->launch->kernel + ", block " + dim_text(current_block);
}

bool ordered(const Access& before, const Access& now) {
    if (before.thread == now.thread || before.block_epoch != now.block_epoch) {
        return true;
    }
    return before.thread / 32 == now.thread / 32 && before.warp_epoch != now.warp_epoch;
}

[[noreturn]] void race(const void* address, const Access& now, bool write, const Access& other, bool other_write) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "%p", address);
    fail((where() + ": shared-memory race at address " + hex + ": thread " + thread_text(now.thread) + " "
          + (write ? "writes" : "reads") + " it after thread " + thread_text(other.thread) + " "
          + (other_write ? "wrote" : "read") + " it with no barrier between them")
             .c_str());
}

}  // namespace

thread_local bool shared_checks = false;

void shared_access(const void* address, bool write, size_t bytes) {
    Worker* w = worker;
    if ((w->launch->checks & kCheckProfile) != 0) {
        profile_shared(address, bytes, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
    }
    if ((w->launch->checks & kCheckRaces) == 0) {
        return;
    }
    int thread = current_thread->linear;
    Access now{thread, w->block_epoch, w->warp_epochs[(size_t) thread / 32]};
    Cell& cell = w->cells.at(reinterpret_cast<uintptr_t>(address));
    if (cell.written && !ordered(cell.writer, now)) {
        race(address, now, write, cell.writer, true);
    }
    if (write) {
        for (const Access& reader : cell.readers) {
            if (!ordered(reader, now)) {
                race(address, now, true, reader, false);
            }
        }
        cell.written = true;
        cell.writer = now;
        cell.readers.clear();
        return;
    }
    // readers of older intervals can no longer race with anything: keep the current interval only
    if (!cell.readers.empty() && cell.readers.back().block_epoch != now.block_epoch) {
        cell.readers.clear();
    }
    // a thread that reads an address again usually does so before anyone else does
    if (!cell.readers.empty() && cell.readers.back().thread == thread && cell.readers.back().warp_epoch == now.warp_epoch) {
        return;
    }
    cell.readers.push_back(now);
}

void shared_index_failure(long long index, long long extent) {
    fail((where() + ": thread " + thread_text(current_thread->linear) + " indexes a shared array of " + std::to_string(extent)
          + " elements at " + std::to_string(index))
             .c_str());
}

size_t dynamic_shared_bytes() {
    return worker->launch->shared_bytes;
}

std::string current_site() {
    if (worker == nullptr || worker->running == nullptr) {
        return "";
    }
    return where() + " thread " + thread_text(current_thread->linear);
}

std::string pointer_arguments(uintptr_t begin, uintptr_t end) {
    std::string out;
    const Launch& l = *worker->launch;
    for (int i = 0; l.kinds[i] != '\0'; i++) {
        if (l.kinds[i] != 'p') {
            continue;
        }
        uintptr_t value = reinterpret_cast<uintptr_t>(*static_cast<void**>(l.args[i]));
        if (value >= begin && value < end) {
            out += (out.empty() ? "kernel argument " : ", ") + std::to_string(i);
        }
    }
    return out;
}

void set_strict(bool strict) {
    strict_mode = strict;
}

void set_checks(int modes) {
    // never while a launch runs: a block reads its modes from its launch, fixed when the launch starts
    std::lock_guard<std::mutex> lock(launch_mutex);
    // profile mode needs the instrumented library: elsewhere it is off
    check_modes.store(profile_built() ? modes : modes & ~kCheckProfile);
    if ((modes & kCheckMemory) != 0) {
        install_memcheck();
    }
}

int checks() {
    return check_modes.load();
}

int host_threads() {
    return pool().size();
}

std::string launch(const char* kernel, const char* kinds, const KernelInvoker& invoker, void** args, dim3 grid,
                   dim3 block, size_t shared_bytes) {
    long long threads = (long long) block.x * block.y * block.z;
    if (threads < 1 || threads > 1024) {
        return "block size outside [1, 1024] threads";
    }
    if ((long long) grid.x * grid.y * grid.z < 1) {
        return "empty grid";
    }
    std::lock_guard<std::mutex> lock(launch_mutex);
    launches++;
    Launch l;
    l.kernel = kernel;
    l.kinds = kinds;
    l.checks = check_modes.load();
    l.invoker = &invoker;
    l.args = args;
    l.grid = grid;
    l.block = block;
    l.shared_bytes = shared_bytes;
    if ((l.checks & kCheckProfile) != 0) {
        profile_launch_begin(kernel, grid, block, shared_bytes);
    }
    const char* error = pool().run(l);
    if ((l.checks & kCheckProfile) != 0) {
        profile_launch_end();
    }
    return error != nullptr ? std::string(error) : std::string();
}

}  // namespace logz_emu
