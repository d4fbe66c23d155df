// Simulated tempering with Rao-Blackwellized statistics (Carlson et al. 2016, Algorithm 1), line for
// line the Java reference org.logz.backend.TemperingSteps: per chain a float64 softmax over the
// levels (maximum subtracted, sums in level order) and an inverse-CDF draw with the 53-bit uniform
// of Philox block (0, first + r, step, TEMPERATURE) for row r (first: the run's index of row 0); per
// (block, group, level), sums over the block's chains of the group in chain order. logz_temper_draw: one
// thread per chain; logz_temper_blocks: below;
// logz_linear_levels: one thread per (chain, level). Blocks of LOGZ_BLOCK, any grid; deterministic.
#include "common.cuh"


extern "C" __global__ void logz_temper_draw(const double* logF, const double* weight, long long count, int levels,
                                            const double* levelBetas, long long first, unsigned int k0,
                                            unsigned int k1, int step, double* q, int* next, double* betas) {
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
        logz_philox_out u = logz_philox(0u, (unsigned int) (first + r), (unsigned int) step, LOGZ_TAG_TEMPERATURE, k0, k1);
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

// Group g holds the chains r with r mod G = g; block b the chains [members·G·b, members·G·(b+1)), the same number of
// members of every group (members: TemperingSteps.BLOCK_MEMBERS, passed by the launcher so that the two cannot differ). One thread per (block, group, level) sums the block's chains of the
// group in chain order and adds the sums to statistics[5K(bG + g) + jK + k]: j = 0 Σ q_rk, 1 Σ q_rk slope_rk,
// 2 Σ_{r at k} slope_rk, 3 #{r at k}, 4 Σ_{r at k} slope_rk² (TemperingSteps.SUMS = 5). The host adds the blocks in block order when it reads them
// (TemperingSteps.groupSums), so a run split into parts at block boundaries keeps its sums to the bit.
extern "C" __global__ void logz_temper_blocks(const double* q, const double* slope, const int* level, long long count,
                                              int levels, int groups, int members, long long blocks,
                                              double* statistics) {
    long long span = (long long) members * groups;
    LOGZ_FOR_EACH(item, blocks * groups * levels) {
        long long cell = item / levels;
        int k = (int) (item - cell * levels);
        long long b = cell / groups;
        int g = (int) (cell - b * groups);
        double occupancy = 0.0;
        double weighted = 0.0;
        double atLevel = 0.0;
        double visits = 0.0;
        double squares = 0.0;
        long long end = (b + 1) * span < count ? (b + 1) * span : count;
        for (long long r = b * span + g; r < end; r += groups) {
            double p = q[r * levels + k];
            occupancy += p;
            weighted += p * slope[r * levels + k];
            if (level[r] == k) {
                double s = slope[r * levels + k];
                atLevel += s;
                visits += 1.0;
                squares += s * s;
            }
        }
        double* out = statistics + 5LL * levels * cell;
        out[k] += occupancy;
        out[levels + k] += weighted;
        out[2 * levels + k] += atLevel;
        out[3 * levels + k] += visits;
        out[4 * levels + k] += squares;
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
