// Philox4x32-10 (Salmon et al., SC'11), bit-exact with Random123 and with the Java reference
// org.logz.random.Philox: the known answers of engine-api's org/logz/random/philox-kat.txt are checked
// against both.
//
// Counter layout (DESIGN §3): c0 = block index within one draw (four uniforms per block),
// c1 = particle index, c2 = step index, c3 = stream tag. Key = the run's 64-bit seed,
// k0 = low word, k1 = high word. Every uniform is a pure function of (seed, counter), so results do
// not depend on launch shapes. Deterministic; no shared memory. The tags (LOGZ_TAG_*) are generated
// from org.logz.random.StreamTag into stream_tags.h, which common.cuh includes.
#pragma once

struct logz_philox_out {
    unsigned int w[4];
};

__device__ __forceinline__ logz_philox_out logz_philox(unsigned int c0, unsigned int c1, unsigned int c2,
                                                      unsigned int c3, unsigned int k0, unsigned int k1) {
    const unsigned int M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
#pragma unroll
    for (int round = 0; round < 10; round++) {
        unsigned int hi0 = __umulhi(M0, c0), lo0 = M0 * c0;
        unsigned int hi1 = __umulhi(M1, c2), lo1 = M1 * c2;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += W0;
        k1 += W1;
    }
    logz_philox_out out;
    out.w[0] = c0;
    out.w[1] = c1;
    out.w[2] = c2;
    out.w[3] = c3;
    return out;
}

// A uint32 as a float in the open interval (0, 1): ((x >> 9) + 0.5f) * 2^-23, exact in float32
// (Philox.toUniform; docs/DESIGN.md, departures).
__device__ __forceinline__ float logz_uniform(unsigned int x) {
    return ((float) (x >> 9) + 0.5f) * 1.1920928955078125e-07f;
}

// Two uint32 words as a double in (0, 1) with 53 random bits (Philox.toUniformDouble).
__device__ __forceinline__ double logz_uniform53(unsigned int w0, unsigned int w1) {
    unsigned long long bits = ((unsigned long long) (w0 >> 5) << 26) | (unsigned long long) (w1 >> 6);
    return ((double) bits + 0.5) * 1.1102230246251565e-16;
}

// The 53-bit uniform of draw k of a stream (Resampling.uniform): words 2(k mod 2), 2(k mod 2)+1 of
// block (k / 2, 0, step, tag).
__device__ __forceinline__ double logz_draw53(long long k, unsigned int k0, unsigned int k1, int step, int tag) {
    logz_philox_out r = logz_philox((unsigned int) (k >> 1), 0u, (unsigned int) step, (unsigned int) tag, k0, k1);
    int w = (int) (k & 1) << 1;
    return logz_uniform53(r.w[w], r.w[w + 1]);
}

// Normal q of (particle, step, tag) (org.logz.random.NormalStream): Box-Muller on block (q/2, particle, step, tag),
// cos for even q and sin for odd q.
__device__ __forceinline__ double logz_stream_normal(long long q, unsigned int k0, unsigned int k1, long long particle,
                                                     int step, int tag) {
    logz_philox_out w = logz_philox((unsigned int) (q >> 1), (unsigned int) particle, (unsigned int) step,
                                    (unsigned int) tag, k0, k1);
    double radius = sqrt(-2.0 * log(logz_uniform53(w.w[0], w.w[1])));
    double angle = 6.283185307179586 * logz_uniform53(w.w[2], w.w[3]);
    return (q & 1) == 0 ? radius * cos(angle) : radius * sin(angle);
}
