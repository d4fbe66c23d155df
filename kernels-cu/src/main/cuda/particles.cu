// Generic particle-memory kernels: fills, sequences, row and vector gathers, column clearing, axpy and scale,
// random row indices and bound checks. Any block size (launchers use LOGZ_BLOCK); any grid;
// no shared memory; deterministic (pure element maps, no atomics but the bound check's flag, which
// only ever goes from 0 to 1).
#include "common.cuh"

// v[k] = value, k < n.
extern "C" __global__ void logz_fill_f64(double* v, long long n, double value) {
    LOGZ_FOR_EACH(k, n) {
        v[k] = value;
    }
}

// v[k] = start + k, k < n.
extern "C" __global__ void logz_sequence_i32(int* v, long long n, int start) {
    LOGZ_FOR_EACH(k, n) {
        v[k] = start + (int) k;
    }
}

// Row k of dst becomes row index[k] of src, k < count; rows of `cols` floats.
extern "C" __global__ void logz_gather_rows_f32(const float* src, int cols, const int* index, long long count,
                                                float* dst) {
    LOGZ_FOR_EACH(e, count * cols) {
        long long k = e / cols;
        int c = (int) (e - k * cols);
        dst[e] = src[(long long) index[k] * cols + c];
    }
}

// dst[k] = src[index[k]], k < count.
extern "C" __global__ void logz_gather_f64(const double* src, const int* index, long long count, double* dst) {
    LOGZ_FOR_EACH(k, count) {
        dst[k] = src[index[k]];
    }
}

// dst[k] = src[index[k]], k < count.
extern "C" __global__ void logz_gather_i32(const int* src, const int* index, long long count, int* dst) {
    LOGZ_FOR_EACH(k, count) {
        dst[k] = src[index[k]];
    }
}

// Sets columns [from, cols) of `rows` rows to zero.
extern "C" __global__ void logz_zero_columns_f32(float* m, int cols, long long rows, int from) {
    int width = cols - from;
    LOGZ_FOR_EACH(e, rows * width) {
        long long r = e / width;
        int c = from + (int) (e - r * width);
        m[r * cols + c] = 0.0f;
    }
}

// Every one of `rows` rows of `cols` floats becomes `row`.
extern "C" __global__ void logz_broadcast_rows_f32(float* m, int cols, long long rows, const float* row) {
    LOGZ_FOR_EACH(e, rows * cols) {
        m[e] = row[e % cols];
    }
}

// out[k] = floor(u_k * bound), u_k the 53-bit uniform of draw k of stream RESEED (Resampling.randomIndices).
extern "C" __global__ void logz_random_indices(int* out, long long count, int bound, unsigned int k0, unsigned int k1,
                                               int step) {
    LOGZ_FOR_EACH(k, count) {
        int v = (int) (logz_draw53(k, k0, k1, step, LOGZ_TAG_RESEED) * bound);
        out[k] = v < bound ? v : bound - 1;
    }
}

// flag[0] = 1 when some index[k], k < count, lies outside [0, bound).
extern "C" __global__ void logz_check_indices(const int* index, long long count, int bound, int* flag) {
    LOGZ_FOR_EACH(k, count) {
        if (index[k] < 0 || index[k] >= bound) {
            flag[0] = 1;
        }
    }
}

// Raw Philox blocks: vector k has counter words in[6k .. 6k+3] and key words in[6k+4], in[6k+5];
// out[4k .. 4k+3] receives the block. Known-answer checks of philox.cuh against Random123.
extern "C" __global__ void logz_philox_blocks(const unsigned int* in, long long n, unsigned int* out) {
    LOGZ_FOR_EACH(k, n) {
        const unsigned int* v = in + 6 * k;
        logz_philox_out r = logz_philox(v[0], v[1], v[2], v[3], v[4], v[5]);
        for (int q = 0; q < 4; q++) {
            out[4 * k + q] = r.w[q];
        }
    }
}

// y[k] += a·x[k], k < n, rounded twice (product, then sum) and never fused, so that the result has
// the bits of the CPU backend's y + a·x.
extern "C" __global__ void logz_axpy_f64(double a, const double* x, double* y, long long n) {
    LOGZ_FOR_EACH(k, n) {
        y[k] = __dadd_rn(y[k], __dmul_rn(a, x[k]));
    }
}

// v[k] *= s, k < n.
extern "C" __global__ void logz_scale_f64(double* v, long long n, double s) {
    LOGZ_FOR_EACH(k, n) {
        v[k] = v[k] * s;
    }
}
