// Resampling to ancestor indices, line for line the arithmetic of the Java reference
// org.logz.resample.Resampling, so both backends pick the same ancestors from the same weights:
// e_r = exp(logW_r - max); cumulative sums in chunks of LOGZ_CHUNK particles, left to right within a
// chunk and across chunk totals; draws from 53-bit Philox uniforms; ancestor = smallest r with
// cdf_r > u * total. Deterministic throughout (sequential scans, no atomics).
//
// Launch shapes: the *_scan and *_cdf kernels run as one block of LOGZ_BLOCK threads with 32
// doubles of shared memory unused; logz_trim_counts as one thread; all others any grid with
// blocks of LOGZ_BLOCK.
#include "common.cuh"

#define LOGZ_CHUNK 256

// e[r] = exp(lw[r] - summary[0]) (summary from logz_weight_summary; all entries finite or -inf).
extern "C" __global__ void logz_resample_weights(const double* lw, long long n, const double* summary, double* e) {
    double max = summary[0];
    LOGZ_FOR_EACH(r, n) {
        e[r] = exp(lw[r] - max);
    }
}

// Chunk offsets of a chunked scan of x[0, n): chunk[c] = Σ x over chunks 0 .. c-1, each chunk summed
// left to right into a T, the chunk totals then left to right by thread 0 (Resampling's order);
// total[0] = the sum of all. T is double for weights, long long for counts. Deterministic (fixed
// order, no atomics). Preconditions: all threads of the one block call it; `chunk` holds
// ceil(n / LOGZ_CHUNK) T of scratch. Ends with a barrier, so every thread may read chunk after it.
template <typename T, typename X>
__device__ __forceinline__ void logz_chunk_offsets(const X* x, long long n, T* chunk, T* total) {
    long long chunks = (n + LOGZ_CHUNK - 1) / LOGZ_CHUNK;
    for (long long c = threadIdx.x; c < chunks; c += blockDim.x) {
        long long end = (c + 1) * LOGZ_CHUNK < n ? (c + 1) * LOGZ_CHUNK : n;
        T run = 0;
        for (long long r = c * LOGZ_CHUNK; r < end; r++) {
            run += x[r];
        }
        chunk[c] = run;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        T offset = 0;
        for (long long c = 0; c < chunks; c++) {
            T t = chunk[c];
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
    logz_chunk_offsets(e, n, chunk, total);
    long long chunks = (n + LOGZ_CHUNK - 1) / LOGZ_CHUNK;
    for (long long c = threadIdx.x; c < chunks; c += blockDim.x) {
        long long end = (c + 1) * LOGZ_CHUNK < n ? (c + 1) * LOGZ_CHUNK : n;
        double run = 0.0;
        double offset = chunk[c];
        for (long long r = c * LOGZ_CHUNK; r < end; r++) {
            run += e[r];
            cdf[r] = offset + run;
        }
    }
}

// Smallest r with cdf[r] > target; the last positive weight when rounding leaves none.
__device__ __forceinline__ int logz_search(const double* cdf, const double* e, long long n, double target) {
    long long lo = 0;
    long long hi = n - 1;
    if (!(cdf[hi] > target)) {
        while (e[hi] == 0.0) {
            hi--;
        }
        return (int) hi;
    }
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        if (cdf[mid] > target) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return (int) lo;
}

// out[k] = ancestor of multinomial draw k, k < count, from weights e with cumulative sums cdf.
extern "C" __global__ void logz_draw_multinomial(const double* cdf, const double* e, long long n, const double* total,
                                                 long long count, unsigned int k0, unsigned int k1, int step, int* out) {
    double t = total[0];
    LOGZ_FOR_EACH(k, count) {
        out[k] = logz_search(cdf, e, n, logz_draw53(k, k0, k1, step, LOGZ_TAG_RESAMPLE) * t);
    }
}

// out[k] = ancestor of systematic draw (U + k) / count, U the uniform of draw 0.
extern "C" __global__ void logz_draw_systematic(const double* cdf, const double* e, long long n, const double* total,
                                                long long count, unsigned int k0, unsigned int k1, int step, int* out) {
    double t = total[0];
    double u0 = logz_draw53(0, k0, k1, step, LOGZ_TAG_RESAMPLE);
    LOGZ_FOR_EACH(k, count) {
        out[k] = logz_search(cdf, e, n, (u0 + (double) k) / (double) count * t);
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
    logz_chunk_offsets(counts, n, chunk, total);
    long long chunks = (n + LOGZ_CHUNK - 1) / LOGZ_CHUNK;
    for (long long c = threadIdx.x; c < chunks; c += blockDim.x) {
        long long end = (c + 1) * LOGZ_CHUNK < n ? (c + 1) * LOGZ_CHUNK : n;
        long long run = chunk[c];
        for (long long r = c * LOGZ_CHUNK; r < end; r++) {
            offsets[r] = (int) run;
            run += counts[r];
        }
    }
}

// Takes `excess` copies back from the last particles (rounding pushed the floors above M). One thread.
extern "C" __global__ void logz_trim_counts(int* counts, long long n, long long excess) {
    for (long long r = n - 1; r >= 0 && excess > 0; r--) {
        long long take = counts[r] < excess ? counts[r] : excess;
        counts[r] -= (int) take;
        excess -= take;
    }
}

// Writes r counts[r] times from out[offsets[r]]: the deterministic copies, in particle order.
extern "C" __global__ void logz_scatter_copies(const int* counts, const int* offsets, long long n, int* out) {
    LOGZ_FOR_EACH(r, n) {
        int at = offsets[r];
        for (int c = 0; c < counts[r]; c++) {
            out[at + c] = (int) r;
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

// ARM-anticipate's split: copy k of particle r gets index r and carried weight carried[r] - log(counts[r]).
extern "C" __global__ void logz_split_scatter(const int* counts, const int* offsets, const double* carried,
                                              long long n, int* index, double* carried_out) {
    LOGZ_FOR_EACH(r, n) {
        int at = offsets[r];
        double lw = carried[r] - log((double) counts[r]);
        for (int c = 0; c < counts[r]; c++) {
            index[at + c] = (int) r;
            carried_out[at + c] = lw;
        }
    }
}
