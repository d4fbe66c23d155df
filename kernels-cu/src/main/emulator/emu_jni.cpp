// JNI entry points of the emulated device (Java: org.logz.cuda.EmulatorNative): device memory is host
// memory, copies are memcpy, launches go through the registry and the fiber launcher, and SGEMM is a
// host implementation of cuBLAS's column-major cublasSgemm contract.
#include <jni.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "emu_registry.h"
#include "emu_runtime.h"

namespace {

void throw_state(JNIEnv* env, const std::string& message) {
    jclass cls = env->FindClass("java/lang/IllegalStateException");
    if (cls != nullptr) {
        env->ThrowNew(cls, message.c_str());
    }
}

template <typename T>
T* address(jlong pointer) {
    return reinterpret_cast<T*>(static_cast<uintptr_t>(pointer));
}

// Element (i, j) of op(M) for a column-major M with leading dimension ld.
inline float element(const float* m, int ld, bool transposed, int i, int j) {
    return transposed ? m[j + (long long) i * ld] : m[i + (long long) j * ld];
}

// C = alpha op(A) op(B) + beta C, column-major, float accumulation (cublasSgemm's contract; with
// beta = 0, C is not read).
void host_sgemm(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
                float beta, float* c, int ldc) {
    std::vector<float> column(m);
    for (int j = 0; j < n; j++) {
        std::fill(column.begin(), column.end(), 0.0f);
        if (!ta) {
            // axpy form: contiguous in i, and zero entries of B (binary states) cost nothing
            for (int l = 0; l < k; l++) {
                float bl = element(b, ldb, tb, l, j);
                if (bl != 0.0f) {
                    const float* al = a + (long long) l * lda;
                    for (int i = 0; i < m; i++) {
                        column[i] += al[i] * bl;
                    }
                }
            }
        } else {
            for (int i = 0; i < m; i++) {
                const float* ai = a + (long long) i * lda;
                float acc = 0.0f;
                for (int l = 0; l < k; l++) {
                    acc += ai[l] * element(b, ldb, tb, l, j);
                }
                column[i] = acc;
            }
        }
        float* cj = c + (long long) j * ldc;
        for (int i = 0; i < m; i++) {
            cj[i] = beta == 0.0f ? alpha * column[i] : alpha * column[i] + beta * cj[i];
        }
    }
}

}  // namespace

extern "C" {

JNIEXPORT jstring JNICALL Java_org_logz_cuda_EmulatorNative_kernels(JNIEnv* env, jclass) {
    return env->NewStringUTF(logz_emu::kernel_list().c_str());
}

JNIEXPORT jboolean JNICALL Java_org_logz_cuda_EmulatorNative_profileBuilt(JNIEnv*, jclass) {
    return logz_emu::profile_built();
}

JNIEXPORT jstring JNICALL Java_org_logz_cuda_EmulatorNative_takeProfile(JNIEnv* env, jclass) {
    return env->NewStringUTF(logz_emu::profile_take().c_str());
}

JNIEXPORT jint JNICALL Java_org_logz_cuda_EmulatorNative_hostThreads(JNIEnv*, jclass) {
    return logz_emu::host_threads();
}

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_setStrict(JNIEnv*, jclass, jboolean strict) {
    logz_emu::set_strict(strict == JNI_TRUE);
}

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_setChecks(JNIEnv*, jclass, jint checks) {
    logz_emu::set_checks(checks);
}

JNIEXPORT jlong JNICALL Java_org_logz_cuda_EmulatorNative_allocate(JNIEnv* env, jclass, jlong bytes) {
    void* p = bytes > 0 ? logz_emu::device_allocate((size_t) bytes) : nullptr;
    if (p == nullptr) {
        throw_state(env, "emulated device: cannot allocate " + std::to_string(bytes) + " bytes");
        return 0;
    }
    return (jlong) (uintptr_t) p;
}

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_release(JNIEnv*, jclass, jlong pointer) {
    logz_emu::device_release(address<void>(pointer));
}

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_fill(JNIEnv*, jclass, jlong pointer, jint value, jlong bytes) {
    std::memset(address<void>(pointer), value, (size_t) bytes);
}

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_copy(JNIEnv*, jclass, jlong dst, jlong src, jlong bytes) {
    std::memmove(address<void>(dst), address<void>(src), (size_t) bytes);
}

#define LOGZ_TRANSFER(Name, JType, JArray, Element)                                                                   \
    JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_put##Name(JNIEnv* env, jclass, jlong dst, JArray src,    \
                                                                        jint offset, jint count) {                    \
        env->Get##Name##ArrayRegion(src, offset, count, address<JType>(dst));                                         \
    }                                                                                                                 \
    JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_get##Name(JNIEnv* env, jclass, jlong src, JArray dst,    \
                                                                        jint offset, jint count) {                    \
        env->Set##Name##ArrayRegion(dst, offset, count, address<JType>(src));                                         \
    }

LOGZ_TRANSFER(Float, jfloat, jfloatArray, float)
LOGZ_TRANSFER(Double, jdouble, jdoubleArray, double)
LOGZ_TRANSFER(Int, jint, jintArray, int)
LOGZ_TRANSFER(Long, jlong, jlongArray, long long)

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_launch(JNIEnv* env, jclass, jstring name, jstring kinds,
                                                               jlongArray args, jint gx, jint gy, jint gz, jint bx,
                                                               jint by, jint bz, jint shared) {
    const char* kernel_name = env->GetStringUTFChars(name, nullptr);
    std::string kernel(kernel_name);
    env->ReleaseStringUTFChars(name, kernel_name);
    const logz_emu::KernelEntry* entry = logz_emu::find_kernel(kernel.c_str());
    if (entry == nullptr) {
        throw_state(env, "emulated device: no kernel named " + kernel);
        return;
    }
    const char* passed_kinds = env->GetStringUTFChars(kinds, nullptr);
    std::string passed(passed_kinds);
    env->ReleaseStringUTFChars(kinds, passed_kinds);
    if (passed != entry->kinds) {
        throw_state(env, "kernel " + kernel + " takes parameters of kinds " + entry->kinds + " but the launcher passes "
                             + passed + " (i int32, l int64, f float, d double, p pointer)");
        return;
    }
    jsize count = env->GetArrayLength(args);
    std::vector<jlong> slots(count);
    env->GetLongArrayRegion(args, 0, count, slots.data());
    std::vector<void*> pointers(count);
    for (jsize i = 0; i < count; i++) {
        pointers[i] = &slots[i];  // little-endian: 4-byte kinds read the low half of their slot
    }
    dim3 grid;
    grid.x = gx;
    grid.y = gy;
    grid.z = gz;
    dim3 block;
    block.x = bx;
    block.y = by;
    block.z = bz;
    std::string error = logz_emu::launch(entry->name, entry->kinds.c_str(), entry->invoker, pointers.data(), grid, block,
                                         (size_t) shared);
    if (!error.empty()) {
        throw_state(env, error.rfind("kernel ", 0) == 0 ? error : "kernel " + kernel + ": " + error);
    }
}

JNIEXPORT void JNICALL Java_org_logz_cuda_EmulatorNative_sgemm(JNIEnv*, jclass, jboolean ta, jboolean tb, jint m,
                                                              jint n, jint k, jfloat alpha, jlong a, jint lda, jlong b,
                                                              jint ldb, jfloat beta, jlong c, jint ldc) {
    host_sgemm(ta == JNI_TRUE, tb == JNI_TRUE, m, n, k, alpha, address<const float>(a), lda, address<const float>(b), ldb,
               beta, address<float>(c), ldc);
}

}  // extern "C"
