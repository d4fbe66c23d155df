// Resampling to ancestor indices, line for line the arithmetic of the Java reference
// org.logz.resample.Resampling, so both backends pick the same ancestors from the same weights:
// e_r = exp(logW_r - max); cumulative sums in chunks of LOGZ_CHUNK particles, left to right within a
// chunk and across chunk totals; draws from 53-bit Philox uniforms; ancestor = smallest r with
// cdf_r > u * total. Deterministic throughout (sequential sums, no atomics).
//
// Launch shapes: logz_chunked_cdf and logz_scan_counts run as one block of exactly LOGZ_BLOCK threads (a shared tile
// per warp); logz_trim_counts as one thread; all others any grid with blocks of LOGZ_BLOCK. Reads and writes coalesce
// except in logz_draw_multinomial, whose independent targets send each lane's binary search to its own addresses
// (only sorting the targets would gather them, and that changes which draw lands in which slot), in the per-lane
// searches of a warp whose targets spread too wide to merge, and in the rare walk back over zero weights.
#include "common.cuh"

#define LOGZ_CHUNK 256

// e[r] = exp(lw[r] - summary[0]) (summary from logz_weight_summary; all entries finite or -inf).
extern "C" __global__ void logz_resample_weights(const double* lw, long long n, const double* summary, double* e) {
    double max = summary[0];
    LOGZ_FOR_EACH(r, n) {
        e[r] = exp(lw[r] - max);
    }
}

// One pass of a chunked scan over x[0, n), a lane per chunk and a warp per 32 chunks: each lane calls visit(c, v) for
// the entries of its chunk c left to right, v the entry's place in the tile (assignable); with Store the tile, as
// visit left it, is written to out. Called by every thread of the one block.
template <bool Store, typename T, typename Visit>
__device__ __forceinline__ void logz_scan_pass(const T* x, T* out, long long n, logz_half_tiles<T>& tile, Visit visit) {
    int lane = (int) (threadIdx.x & (LOGZ_WARP - 1));
    int warp = (int) (threadIdx.x / LOGZ_WARP);
    long long chunks = (n + LOGZ_CHUNK - 1) / LOGZ_CHUNK;
    for (long long c0 = (long long) warp * LOGZ_WARP; c0 < chunks; c0 += (long long) blockDim.x) {
        long long c = c0 + lane;
        for (int t = 0; t < LOGZ_CHUNK; t += LOGZ_HALF_TILE) {
            logz_stage_half_rows<true>(x, LOGZ_CHUNK, c0, chunks, t, LOGZ_CHUNK, n, tile, warp, lane);
            __syncwarp();
            for (int j = 0; j < LOGZ_HALF_TILE && c < chunks && c * LOGZ_CHUNK + t + j < n; j++) {
                visit(c, tile[warp][lane][j]);
            }
            __syncwarp();
            if constexpr (Store) {
                logz_stage_half_rows<false>(out, LOGZ_CHUNK, c0, chunks, t, LOGZ_CHUNK, n, tile, warp, lane);
                __syncwarp();
            }
        }
    }
}

// Chunk offsets of a chunked scan of x[0, n): chunk[c] = Σ x over chunks 0 .. c-1, each chunk summed
// left to right into an S, the chunk totals then left to right by thread 0 (Resampling's order);
// total[0] = the sum of all. S is double for weights, long long for counts. Deterministic (fixed
// order, no atomics). Preconditions: all threads of the one block call it; `chunk` holds
// ceil(n / LOGZ_CHUNK) S of scratch. Ends with a barrier, so every thread may read chunk after it.
template <typename S, typename T>
__device__ __forceinline__ void logz_chunk_offsets(const T* x, long long n, S* chunk, S* total,
                                                   logz_half_tiles<T>& tile) {
    S run = 0;
    long long mine = -1;
    logz_scan_pass<false>(x, (T*) nullptr, n, tile, [&](long long c, T v) {
        if (c != mine) {
            if (mine >= 0) {
                chunk[mine] = run;
            }
            mine = c;
            run = 0;
        }
        run += v;
    });
    if (mine >= 0) {
        chunk[mine] = run;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        long long chunks = (n + LOGZ_CHUNK - 1) / LOGZ_CHUNK;
        S offset = 0;
        for (long long c = 0; c < chunks; c++) {
            S t = chunk[c];
            chunk[c] = offset;
            offset += t;
        }
        total[0] = offset;
    }
    __syncthreads();
}

// Inclusive chunked cumulative sum of e[0, n) into cdf: within a chunk the running sum from 0, added
// to the chunk's offset; total[0] = the sum. `chunk` holds ceil(n / LOGZ_CHUNK) doubles of scratch.
// One block.
extern "C" __global__ void logz_chunked_cdf(const double* e, long long n, double* cdf, double* chunk, double* total) {
    __shared__ logz_shared<double[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_HALF_TILE + 1]> tile;
    logz_chunk_offsets(e, n, chunk, total, tile);
    double run = 0.0;
    double offset = 0.0;
    long long mine = -1;
    logz_scan_pass<true>(e, cdf, n, tile, [&](long long c, auto&& v) {
        if (c != mine) {
            mine = c;
            run = 0.0;
            offset = chunk[c];
        }
        run += (double) v;
        v = offset + run;
    });
}

// Smallest r < n with key(r) > target, or n when there is none; key nondecreasing.
template <typename T, typename Key>
__device__ __forceinline__ long long logz_upper_bound(Key key, long long n, T target) {
    long long lo = 0;
    long long hi = n;
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        if (key(mid) > target) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

// Keys a warp's merge may span (logz_warp_upper_bound); wider spans go to a binary search per lane.
#define LOGZ_MERGE_SPAN 256

// logz_upper_bound(key, n, target(k)) for item k of a warp's span of 32 consecutive items (those at or past `count`
// are not live and get n), where target is nondecreasing in k: the bounds of the span's first and last live targets
// by binary searches every lane makes alike (the same addresses), then, where they are at most LOGZ_MERGE_SPAN apart,
// a merge of the targets with the keys between: the keys read 32 at a time at consecutive addresses from the aligned
// window that holds the first, each lane taking the first key above its target from the window's registers, until
// every live lane has one. The keys a warp reads span its targets, so a grid of warps reads the keys about once; a
// warp whose targets are spread wider (far fewer targets than keys) searches per lane instead. Every lane of the warp
// calls it (LOGZ_FOR_EACH_SPAN).
template <typename Key, typename Target>
__device__ long long logz_warp_upper_bound(Key key, long long n, Target target, long long k, long long count) {
    int lane = (int) (threadIdx.x & (LOGZ_WARP - 1));
    long long low = k - lane;
    long long high = low + LOGZ_WARP - 1 < count ? low + LOGZ_WARP - 1 : count - 1;
    bool live = k < count;
    auto mine = target(live ? k : high);
    long long first = logz_upper_bound(key, n, target(low));
    long long last = logz_upper_bound(key, n, target(high));
    if (last - first > LOGZ_MERGE_SPAN) {
        return live ? logz_upper_bound(key, n, mine) : n;
    }
    long long found = n;
    bool done = !live;
    for (long long w = first & ~(long long) (LOGZ_WARP - 1); w <= last && w < n && __ballot_sync(LOGZ_FULL_MASK, !done);
         w += LOGZ_WARP) {
        auto window = w + lane < n ? key(w + lane) : decltype(key(0))();
        for (int j = 0; j < LOGZ_WARP && w + j < n; j++) {
            auto next = __shfl_sync(LOGZ_FULL_MASK, window, j);
            if (!done && next > mine) {
                found = w + j;
                done = true;
            }
        }
    }
    return found;
}

// The ancestor of a draw at `target`, from logz_upper_bound's r over the cdf: r itself, or, when rounding left no
// cdf entry above the target (r = n), the last positive weight.
__device__ __forceinline__ int logz_ancestor(const double* e, long long n, long long r) {
    if (r == n) {
        r = n - 1;
        while (e[r] == 0.0) {
            r--;
        }
    }
    return (int) r;
}

// out[k] = ancestor of multinomial draw k, k < count, from weights e with cumulative sums cdf: a binary search per
// draw.
extern "C" __global__ void logz_draw_multinomial(const double* cdf, const double* e, long long n, const double* total,
                                                 long long count, unsigned int k0, unsigned int k1, int step, int* out) {
    double t = total[0];
    LOGZ_FOR_EACH(k, count) {
        double target = logz_draw53(k, k0, k1, step, LOGZ_TAG_RESAMPLE) * t;
        out[k] = logz_ancestor(e, n, logz_upper_bound([&](long long r) { return cdf[r]; }, n, target));
    }
}

// Grid-stride loop of warps over [0, n) in spans of 32 consecutive items: `k` is this lane's item, live below n;
// the loop's test is the span's start, the same for every lane of the warp.
#define LOGZ_FOR_EACH_SPAN(k, n)                                                                               \
    for (long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x;                                     \
         k - (long long) (threadIdx.x & (LOGZ_WARP - 1)) < (long long) (n); k += (long long) gridDim.x * blockDim.x)

// out[k] = ancestor of systematic draw (U + k) / count, U the uniform of draw 0: the targets rise with k, so a warp
// finds its 32 by one merge over the cdf (logz_warp_upper_bound).
extern "C" __global__ void logz_draw_systematic(const double* cdf, const double* e, long long n, const double* total,
                                                long long count, unsigned int k0, unsigned int k1, int step, int* out) {
    double t = total[0];
    double u0 = logz_draw53(0, k0, k1, step, LOGZ_TAG_RESAMPLE);
    LOGZ_FOR_EACH_SPAN(k, count) {
        long long r = logz_warp_upper_bound([&](long long i) { return cdf[i]; }, n,
                                            [&](long long d) { return (u0 + (double) d) / (double) count * t; }, k,
                                            count);
        if (k < count) {
            out[k] = logz_ancestor(e, n, r);
        }
    }
}

// counts[r] = max(minimum, floor(scale * (e[r] / total))).
extern "C" __global__ void logz_floor_counts(const double* e, long long n, const double* total, double scale,
                                             int minimum, int* counts) {
    double t = total[0];
    LOGZ_FOR_EACH(r, n) {
        int c = (int) floor(scale * (e[r] / t));
        counts[r] = c > minimum ? c : minimum;
    }
}

// Exclusive prefix sum of counts[0, n) into offsets; total[0] = the sum. `chunk` holds
// ceil(n / LOGZ_CHUNK) longs of scratch. One block.
extern "C" __global__ void logz_scan_counts(const int* counts, long long n, int* offsets, long long* chunk,
                                            long long* total) {
    __shared__ logz_shared<int[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_HALF_TILE + 1]> tile;
    logz_chunk_offsets(counts, n, chunk, total, tile);
    long long run = 0;
    long long mine = -1;
    logz_scan_pass<true>(counts, offsets, n, tile, [&](long long c, auto&& v) {
        if (c != mine) {
            mine = c;
            run = chunk[c];
        }
        int count = v;
        v = (int) run;
        run += count;
    });
}

// Takes `excess` copies back from the last particles (rounding pushed the floors above M). One thread.
extern "C" __global__ void logz_trim_counts(int* counts, long long n, long long excess) {
    for (long long r = n - 1; r >= 0 && excess > 0; r--) {
        long long take = counts[r] < excess ? counts[r] : excess;
        counts[r] -= (int) take;
        excess -= take;
    }
}

// The particle whose copies hold output slot k < copies: the smallest r with offsets[r] + counts[r] > k. Slots rise
// with k, so a warp finds its 32 by one merge over the copies' ends (logz_warp_upper_bound), reading offsets and
// counts at consecutive addresses and writing consecutive slots (a thread per particle writing its own run of slots
// touched a sector per slot).
__device__ __forceinline__ long long logz_copy_owner(const int* counts, const int* offsets, long long n, long long k,
                                                     long long copies) {
    return logz_warp_upper_bound([&](long long r) { return (long long) offsets[r] + counts[r]; }, n,
                                 [](long long d) { return d; }, k, copies);
}

// out[k] = the particle of slot k, k < copies = Σ counts: each r counts[r] times from out[offsets[r]], the
// deterministic copies in particle order.
extern "C" __global__ void logz_scatter_copies(const int* counts, const int* offsets, long long n, long long copies,
                                               int* out) {
    LOGZ_FOR_EACH_SPAN(k, copies) {
        long long r = logz_copy_owner(counts, offsets, n, k, copies);
        if (k < copies) {
            out[k] = (int) r;
        }
    }
}

// Residual shares res[r] = max(0, offspring * (e[r] / total) - counts[r]).
extern "C" __global__ void logz_residual_weights(const double* e, long long n, const double* total, int offspring,
                                                 const int* counts, double* res) {
    double t = total[0];
    LOGZ_FOR_EACH(r, n) {
        double v = (double) offspring * (e[r] / t) - (double) counts[r];
        res[r] = v > 0.0 ? v : 0.0;
    }
}

// ARM-anticipate's split: slot k < copies, a copy of particle r, gets index r and carried weight
// carried[r] - log(counts[r]).
extern "C" __global__ void logz_split_scatter(const int* counts, const int* offsets, const double* carried,
                                              long long n, long long copies, int* index, double* carried_out) {
    LOGZ_FOR_EACH_SPAN(k, copies) {
        long long r = logz_copy_owner(counts, offsets, n, k, copies);
        if (k < copies) {
            index[k] = (int) r;
            carried_out[k] = carried[r] - log((double) counts[r]);
        }
    }
}
