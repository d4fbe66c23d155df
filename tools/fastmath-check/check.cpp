// Exhaustive check of fastmath.cuh's float32 2^x (DESIGN §4 "all levels in float32"): every float x in
// [-126, 0] against exp2 in float64, and logz_log_scaled against long-double log on 2·10^8 random arguments.
// Run: tools/fastmath-check/run (about 40 s on one core).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "fastmath.cuh"

int main() {
    double worst = 0;
    float worstAt = 0;
    long count = 0;
    float lowest = -126.0f;
    uint32_t last;
    memcpy(&last, &lowest, sizeof last);
    for (uint32_t bits = 0x80000000u; bits <= last; bits++) {
        float x;
        memcpy(&x, &bits, sizeof x);
        double exact = exp2((double) x);
        double relative = fabs((double) logz_exp2_neg(x) - exact) / exact;
        if (relative > worst) {
            worst = relative;
            worstAt = x;
        }
        count++;
    }
    printf("logz_exp2_neg: %ld floats in [-126, 0], largest relative error %.3e at x = %.9g\n", count, worst, worstAt);
    double worstUlp = 0;
    double worstP = 0;
    uint64_t state = 88172645463325252ull;
    for (long i = 0; i < 200000000; i++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        double mantissa = 1.0 + (double) (state >> 11) * 0x1.0p-53;
        int e = (int) (state % 300);
        double p = ldexp(mantissa, e);
        long double exact = logl((long double) mantissa) + (long double) e * logl(2.0L);
        double ulp = nextafter(fabs((double) exact), INFINITY) - fabs((double) exact);
        double error = (double) (fabsl((long double) logz_log_scaled(p, 0) - exact) / ulp);
        if (error > worstUlp) {
            worstUlp = error;
            worstP = p;
        }
    }
    printf("logz_log_scaled: 2e8 arguments in [1, 2^300), largest error %.3f ulp at p = %.17g\n", worstUlp, worstP);
    return 0;
}
