// JNI entry points of org.logz.cpu.CpuNative and the choice of instruction set: each RBM handle records the
// instruction set that made it, and every call runs that set's functions (so tests can hold handles of every
// set at once and compare their bits). Arrays come in through GetPrimitiveArrayCritical (no copy) and
// leave it before returning; buffers are addresses of the Java side's off-heap tiles.
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "logz_cpu.h"

namespace {

struct Functions {
    logz_rbm* (*create)(const float*, const float*, const float*, const float*, int, int);
    void (*free)(logz_rbm*);
    void (*productXw)(const logz_rbm*, const float*, int, int, float*);
    void (*productHwt)(const logz_rbm*, const float*, int, int, float*);
    int (*hidden)(const logz_rbm*, const float*, int, int, const float*, uint64_t, int, int, int, float*, int*, int);
    int (*visible)(const logz_rbm*, const float*, int, int, const float*, uint64_t, int, int, int, float*, int*, int);
    int (*anneal)(const logz_rbm*, const float*, const float*, int, double, double, int, uint64_t, int, int, int,
                  double*, float*, int*, int);
    void (*levels)(const logz_rbm*, const float*, const float*, int, const double*, int, double*, double*);
};

#define LOGZ_FUNCTIONS(isa)                                                                                   \
    Functions {                                                                                               \
        logz_rbm_create_##isa, logz_rbm_free_##isa, logz_product_xw_##isa, logz_product_hwt_##isa,           \
            logz_sample_hidden_##isa, logz_sample_visible_##isa, logz_anneal_##isa, logz_levels_##isa         \
    }

// build.sh defines LOGZ_BUILT_AVX512 and LOGZ_BUILT_AVX2 for the sets its compiler built (an older g++ may lack
// -march=x86-64-v4); the generic set is always built.
const Functions& functions(int isa) {
#if defined(LOGZ_BUILT_AVX512)
    static const Functions avx512 = LOGZ_FUNCTIONS(avx512);
    if (isa == LOGZ_ISA_AVX512) {
        return avx512;
    }
#endif
#if defined(LOGZ_BUILT_AVX2)
    static const Functions avx2 = LOGZ_FUNCTIONS(avx2);
    if (isa == LOGZ_ISA_AVX2) {
        return avx2;
    }
#endif
    static const Functions generic = LOGZ_FUNCTIONS(generic);
    return generic;
}

// The best set this CPU and OS run (libgcc checks CPUID and that the OS saves the wider registers) and this library
// holds.
int best() {
#if defined(__x86_64__)
    __builtin_cpu_init();
#endif
#if defined(LOGZ_BUILT_AVX512)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("fma")
        && __builtin_cpu_supports("bmi2")) {
        return LOGZ_ISA_AVX512;
    }
#endif
#if defined(LOGZ_BUILT_AVX2)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("movbe")) {
        return LOGZ_ISA_AVX2;
    }
#endif
    return LOGZ_ISA_GENERIC;
}

const logz_rbm* handle(jlong h) {
    return reinterpret_cast<const logz_rbm*>(h);
}

template <typename T>
T* address(jlong a) {
    return reinterpret_cast<T*>(a);
}

// A primitive array held with GetPrimitiveArrayCritical for one call.
template <typename T>
class Critical {
  public:
    Critical(JNIEnv* env, jarray array, jint mode) : env_(env), array_(array), mode_(mode) {
        data_ = array == nullptr ? nullptr : static_cast<T*>(env->GetPrimitiveArrayCritical(array, nullptr));
    }
    ~Critical() {
        if (data_ != nullptr) {
            env_->ReleasePrimitiveArrayCritical(array_, const_cast<void*>(static_cast<const void*>(data_)), mode_);
        }
    }
    Critical(const Critical&) = delete;
    Critical& operator=(const Critical&) = delete;
    T* get() const { return data_; }

  private:
    JNIEnv* env_;
    jarray array_;
    jint mode_;
    T* data_;
};

}  // namespace

extern "C" {

JNIEXPORT jint JNICALL Java_org_logz_cpu_CpuNative_best(JNIEnv*, jclass) {
    return best();
}

JNIEXPORT jboolean JNICALL Java_org_logz_cpu_CpuNative_built(JNIEnv*, jclass, jint isa) {
    switch (isa) {
#if defined(LOGZ_BUILT_AVX512)
        case LOGZ_ISA_AVX512:
            return JNI_TRUE;
#endif
#if defined(LOGZ_BUILT_AVX2)
        case LOGZ_ISA_AVX2:
            return JNI_TRUE;
#endif
        case LOGZ_ISA_GENERIC:
            return JNI_TRUE;
        default:
            return JNI_FALSE;
    }
}

// A tile's memory: zeroed, 64-byte aligned, outside the Java heap and outside the JVM's direct-memory limit (a run's
// particles may take more than the heap), seen by Java as a direct ByteBuffer (an int capacity) and by the kernels at
// its address. Null when the allocation fails. Freed by release, once.
JNIEXPORT jobject JNICALL Java_org_logz_cpu_CpuNative_allocate(JNIEnv* env, jclass, jint bytes) {
    size_t size = ((size_t) bytes + 63) / 64 * 64;
    void* p = aligned_alloc(64, size == 0 ? 64 : size);
    if (p == nullptr) {
        return nullptr;
    }
    memset(p, 0, size);
    jobject buffer = env->NewDirectByteBuffer(p, bytes);
    if (buffer == nullptr) {
        free(p);
    }
    return buffer;
}

JNIEXPORT void JNICALL Java_org_logz_cpu_CpuNative_release(JNIEnv* env, jclass, jobject buffer) {
    free(env->GetDirectBufferAddress(buffer));
}

JNIEXPORT jlong JNICALL Java_org_logz_cpu_CpuNative_address(JNIEnv* env, jclass, jobject buffer) {
    return reinterpret_cast<jlong>(env->GetDirectBufferAddress(buffer));
}

JNIEXPORT jlong JNICALL Java_org_logz_cpu_CpuNative_create(JNIEnv* env, jclass, jint isa, jfloatArray w, jfloatArray a,
                                                           jfloatArray b, jfloatArray a0, jint n, jint h) {
    Critical<const float> wc(env, w, JNI_ABORT), ac(env, a, JNI_ABORT), bc(env, b, JNI_ABORT), a0c(env, a0, JNI_ABORT);
    return reinterpret_cast<jlong>(functions(isa).create(wc.get(), ac.get(), bc.get(), a0c.get(), n, h));
}

JNIEXPORT void JNICALL Java_org_logz_cpu_CpuNative_free(JNIEnv*, jclass, jlong h) {
    logz_rbm* m = reinterpret_cast<logz_rbm*>(h);
    if (m != nullptr) {
        functions(m->isa).free(m);
    }
}

JNIEXPORT jint JNICALL Java_org_logz_cpu_CpuNative_isa(JNIEnv*, jclass, jlong h) {
    return handle(h)->isa;
}

JNIEXPORT void JNICALL Java_org_logz_cpu_CpuNative_productXw(JNIEnv*, jclass, jlong h, jlong x, jint rows, jint active,
                                                             jlong u) {
    functions(handle(h)->isa).productXw(handle(h), address<const float>(x), rows, active, address<float>(u));
}

JNIEXPORT void JNICALL Java_org_logz_cpu_CpuNative_productHwt(JNIEnv*, jclass, jlong h, jlong hid, jint rows,
                                                              jint active, jlong v) {
    functions(handle(h)->isa).productHwt(handle(h), address<const float>(hid), rows, active, address<float>(v));
}

JNIEXPORT jint JNICALL Java_org_logz_cpu_CpuNative_sampleHidden(JNIEnv* env, jclass, jlong h, jlong field, jint rows,
                                                                jboolean withBias, jfloatArray beta, jint betaOffset, jlong seed,
                                                                jint particle0, jint step, jint tag, jlong out,
                                                                jintArray ambiguous) {
    jsize capacity = env->GetArrayLength(ambiguous);
    Critical<const float> betas(env, beta, JNI_ABORT);
    Critical<int> list(env, ambiguous, 0);
    return functions(handle(h)->isa).hidden(handle(h), address<const float>(field), rows, withBias, betas.get() + betaOffset,
                                            (uint64_t) seed, particle0, step, tag, address<float>(out), list.get(),
                                            capacity);
}

JNIEXPORT jint JNICALL Java_org_logz_cpu_CpuNative_sampleVisible(JNIEnv* env, jclass, jlong h, jlong v, jint rows,
                                                                 jint active, jfloatArray beta, jint betaOffset,
                                                                 jlong seed, jint particle0, jint step, jint tag, jlong x,
                                                                 jintArray ambiguous) {
    jsize capacity = env->GetArrayLength(ambiguous);
    Critical<const float> betas(env, beta, JNI_ABORT);
    Critical<int> list(env, ambiguous, 0);
    return functions(handle(h)->isa).visible(handle(h), address<const float>(v), rows, active, betas.get() + betaOffset,
                                             (uint64_t) seed, particle0, step, tag, address<float>(x), list.get(),
                                             capacity);
}

JNIEXPORT jint JNICALL Java_org_logz_cpu_CpuNative_anneal(JNIEnv* env, jclass, jlong h, jlong u, jlong x, jint rows,
                                                          jdouble from, jdouble to, jboolean draw, jlong seed,
                                                          jint particle0, jint step, jint tag, jdoubleArray logW,
                                                          jint offset, jlong out, jintArray ambiguous) {
    jsize capacity = env->GetArrayLength(ambiguous);
    Critical<double> weights(env, logW, 0);
    Critical<int> list(env, ambiguous, 0);
    return functions(handle(h)->isa).anneal(handle(h), address<const float>(u), address<const float>(x), rows, from, to,
                                            draw, (uint64_t) seed, particle0, step, tag, weights.get() + offset,
                                            address<float>(out), list.get(), capacity);
}

JNIEXPORT void JNICALL Java_org_logz_cpu_CpuNative_levels(JNIEnv* env, jclass, jlong h, jlong u, jlong x, jint rows,
                                                          jdoubleArray betas, jint levels, jdoubleArray logF,
                                                          jdoubleArray slope, jint offset) {
    Critical<const double> ladder(env, betas, JNI_ABORT);
    Critical<double> values(env, logF, 0), slopes(env, slope, 0);
    functions(handle(h)->isa).levels(handle(h), address<const float>(u), address<const float>(x), rows, ladder.get(),
                                     levels, values.get() + offset, slopes.get() + offset);
}

}  // extern "C"
