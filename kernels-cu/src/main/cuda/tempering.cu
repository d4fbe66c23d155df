// Simulated tempering with Rao-Blackwellized statistics (Carlson et al. 2016, Algorithm 1), line for
// line the Java reference org.logz.backend.TemperingSteps: per chain a float64 softmax over the
// levels (maximum subtracted, sums in level order) and an inverse-CDF draw with the 53-bit uniform
// of Philox block (0, chain, step, TEMPERATURE); per (group, level), sums over the group's chains in
// chunked chain order. logz_temper_draw: one thread per chain; logz_temper_chunks and
// logz_temper_accumulate: below;
// logz_linear_levels: one thread per (chain, level). Blocks of LOGZ_BLOCK, any grid; deterministic.
#include "common.cuh"

#define LOGZ_TAG_TEMPERATURE 17

extern "C" __global__ void logz_temper_draw(const double* logF, const double* weight, long long count, int levels,
                                            const double* levelBetas, unsigned int k0, unsigned int k1, int step,
                                            double* q, int* next, double* betas) {
    LOGZ_FOR_EACH(r, count) {
        const double* row = logF + r * levels;
        double* out = q + r * levels;
        double max = -INFINITY;
        for (int k = 0; k < levels; k++) {
            max = fmax(max, row[k] + weight[k]);
        }
        double total = 0.0;
        for (int k = 0; k < levels; k++) {
            double e = exp(row[k] + weight[k] - max);
            out[k] = e;
            total += e;
        }
        logz_philox_out u = logz_philox(0u, (unsigned int) r, (unsigned int) step, LOGZ_TAG_TEMPERATURE, k0, k1);
        double target = logz_uniform53(u.w[0], u.w[1]) * total;
        int chosen = levels - 1;
        double cumulative = 0.0;
        for (int k = 0; k < levels; k++) {
            cumulative += out[k];
            if (cumulative > target) {
                chosen = k;
                break;
            }
        }
        for (int k = 0; k < levels; k++) {
            out[k] /= total;
        }
        next[r] = chosen;
        betas[r] = levelBetas[chosen];
    }
}

// Group g holds the chains r with r mod G = g (its members m = 0, 1, ... are r = g + mG). The per-level sums
// go in two kernels, in the order of TemperingSteps.accumulate: logz_temper_chunks, one thread per (group,
// level, chunk of LOGZ_TEMPER_CHUNK members), sums its chunk in member order into partial[4 (e·chunks + c) + j]
// with e = gK + k; logz_temper_accumulate, one thread per (group, level), adds the chunk sums in chunk order
// to statistics[4Kg + jK + k]: j = 0 Σ q_rk, 1 Σ q_rk slope_rk, 2 Σ_{r at k} slope_rk, 3 #{r at k}. The
// earlier single kernel ran K threads, each over every chain: one block on one SM, latency-bound.
#define LOGZ_TEMPER_CHUNK 256

extern "C" __global__ void logz_temper_chunks(const double* q, const double* slope, const int* level, long long count,
                                              int levels, int groups, long long chunks, double* partial) {
    long long members = (count + groups - 1) / groups;
    LOGZ_FOR_EACH(item, (long long) groups * levels * chunks) {
        long long e = item / chunks;
        long long c = item - e * chunks;
        int g = (int) (e / levels);
        int k = (int) (e - (long long) g * levels);
        double occupancy = 0.0;
        double weighted = 0.0;
        double atLevel = 0.0;
        double visits = 0.0;
        long long end = c * LOGZ_TEMPER_CHUNK + LOGZ_TEMPER_CHUNK < members ? c * LOGZ_TEMPER_CHUNK + LOGZ_TEMPER_CHUNK
                                                                              : members;
        for (long long m = c * LOGZ_TEMPER_CHUNK; m < end; m++) {
            long long r = g + m * groups;
            if (r >= count) {
                break;
            }
            double p = q[r * levels + k];
            occupancy += p;
            weighted += p * slope[r * levels + k];
            if (level[r] == k) {
                atLevel += slope[r * levels + k];
                visits += 1.0;
            }
        }
        double* out = partial + 4 * item;
        out[0] = occupancy;
        out[1] = weighted;
        out[2] = atLevel;
        out[3] = visits;
    }
}

extern "C" __global__ void logz_temper_accumulate(const double* partial, long long chunks, int levels, int groups,
                                                  double* statistics) {
    LOGZ_FOR_EACH(e, (long long) groups * levels) {
        int g = (int) (e / levels);
        int k = (int) (e - (long long) g * levels);
        double total[4] = {0.0, 0.0, 0.0, 0.0};
        for (long long c = 0; c < chunks; c++) {
            const double* in = partial + 4 * (e * chunks + c);
            for (int j = 0; j < 4; j++) {
                total[j] += in[j];
            }
        }
        double* out = statistics + 4LL * levels * g;
        for (int j = 0; j < 4; j++) {
            out[j * levels + k] += total[j];
        }
    }
}

// logF[r·levels + k] = β_k values[r], slope[r·levels + k] = values[r].
extern "C" __global__ void logz_linear_levels(const double* values, long long count, const double* levelBetas, int levels,
                                              double* logF, double* slope) {
    LOGZ_FOR_EACH(e, count * levels) {
        long long r = e / levels;
        int k = (int) (e - r * levels);
        logF[e] = levelBetas[k] * values[r];
        slope[e] = values[r];
    }
}
