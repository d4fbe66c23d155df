// The fiber scheduler behind cuda_emu.h and the launcher that runs a kernel's blocks.
//
// Each host worker owns a pool of fibers (one per CUDA thread of the largest block it has run),
// created once with makecontext and switched with _setjmp/_longjmp, which unlike swapcontext makes
// no system call. A fiber runs its thread of the current block until it finishes or waits at a
// barrier; the scheduler releases a block barrier when every live thread of the block waits at it,
// and a warp barrier when every lane of its mask waits. No thread ever runs while another of the same
// host worker does, so shared memory and warp slots need no locks.
#include "emu_runtime.h"

#include <atomic>
#include <condition_variable>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <mutex>
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
    ThreadState state;
};

struct Launch {
    const KernelInvoker* invoker = nullptr;
    void** args = nullptr;
    dim3 grid;
    dim3 block;
    size_t shared_bytes = 0;
};

bool strict_mode = false;

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
    for (int t = 0; t < threads; t++) {
        Fiber* f = w->fibers[t];
        f->status = Status::Ready;
        f->state.linear = t;
        f->state.thread_idx.x = t % l.block.x;
        f->state.thread_idx.y = (t / l.block.x) % l.block.y;
        f->state.thread_idx.z = t / (l.block.x * l.block.y);
    }
    w->error = nullptr;
    int done = 0;
    while (done < threads) {
        bool progressed = false;
        for (int t = 0; t < threads; t++) {
            Fiber* f = w->fibers[t];
            if (f->status == Status::Ready) {
                resume(w, f);
                progressed = true;
                if (w->error != nullptr) {
                    abandon(w, threads);
                    return w->error;
                }
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
            for (int t = 0; t < threads; t++) {
                w->fibers[t]->status = Status::Ready;
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
                for (int lane = 0; lane < 32; lane++) {
                    if (waiting >> lane & 1u) {
                        w->fibers[base + lane]->status = Status::Ready;
                    }
                }
                progressed = true;
            } else if (waiting != 0 && strict_mode) {
                for (int lane = 0; lane < 32; lane++) {
                    if ((mask >> lane & 1u) && (base + lane >= threads || w->fibers[base + lane]->status == Status::Done)) {
                        abandon(w, threads);
                        return "warp operation whose mask names an exited or absent lane";
                    }
                }
            }
        }
        if (!progressed && done < threads) {
            abandon(w, threads);
            return "deadlock: a barrier that not every thread of the block reaches";
        }
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

void syncwarp(unsigned int mask) {
    Fiber* f = worker->running;
    f->status = Status::WarpBarrier;
    f->warp_mask = mask;
    yield();
}

uint64_t warp_exchange(unsigned int mask, uint64_t value, int source_lane) {
    Worker* w = worker;
    int lane = current_thread->linear & 31;
    int base = current_thread->linear & ~31;
    if (strict_mode && !(mask >> lane & 1u)) {
        fail("a lane outside the mask calls a warp shuffle");
    }
    w->warp_slots[base + lane] = value;
    syncwarp(mask);
    if (!(mask >> source_lane & 1u)) {
        if (strict_mode) {
            fail("a warp shuffle reads an inactive lane");
        }
    }
    uint64_t result = w->warp_slots[base + source_lane];
    syncwarp(mask);
    return result;
}

unsigned int warp_ballot(unsigned int mask, int predicate) {
    Worker* w = worker;
    int lane = current_thread->linear & 31;
    int base = current_thread->linear & ~31;
    w->warp_slots[base + lane] = predicate != 0;
    syncwarp(mask);
    unsigned int bits = 0;
    for (int l = 0; l < 32; l++) {
        if ((mask >> l & 1u) && w->warp_slots[base + l] != 0) {
            bits |= 1u << l;
        }
    }
    syncwarp(mask);
    return bits;
}

void* dynamic_shared() {
    return worker->shared.data();
}

void fail(const char* message) {
    Worker* w = worker;
    w->error = message;
    w->running->status = Status::Done;
    yield();
    std::abort();  // not reached: a failed block is never resumed
}

void set_strict(bool strict) {
    strict_mode = strict;
}

int host_threads() {
    return pool().size();
}

const char* launch(const KernelInvoker& invoker, void** args, dim3 grid, dim3 block, size_t shared_bytes) {
    long long threads = (long long) block.x * block.y * block.z;
    if (threads < 1 || threads > 1024) {
        return "block size outside [1, 1024] threads";
    }
    if ((long long) grid.x * grid.y * grid.z < 1) {
        return "empty grid";
    }
    std::lock_guard<std::mutex> lock(launch_mutex);
    Launch l;
    l.invoker = &invoker;
    l.args = args;
    l.grid = grid;
    l.block = block;
    l.shared_bytes = shared_bytes;
    return pool().run(l);
}

}  // namespace logz_emu
