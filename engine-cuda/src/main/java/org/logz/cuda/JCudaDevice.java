package org.logz.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoD;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD8;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import jcuda.jcublas.JCublas2;
import jcuda.jcublas.cublasHandle;
import jcuda.jcublas.cublasOperation;

/**
 * A GPU through the JCuda driver API (backend {@code cuda}): the primary context of device 0, the
 * kernel module of kernels-cu (the fatbin on drivers of CUDA 13 or newer, the lowered PTX, JIT-compiled,
 * on older ones or when the fatbin does not load), and cuBLAS SGEMM when libcublas.so.12 loads, the
 * tiled GEMM kernels otherwise. Availability is probed once ({@link #probe()}).
 */
final class JCudaDevice implements CudaDevice {

    /** A device allocation; its address is readable here (JCuda keeps it protected). */
    private static final class Allocation extends CUdeviceptr {
        private final long bytes;

        Allocation(long bytes) {
            this.bytes = bytes;
        }

        long address() {
            return getNativePointer();
        }
    }

    private static volatile String probe;

    /**
     * Debug mode ({@code LOGZ_CUDA_SYNC=1} or {@code -Dlogz.cuda.sync=true}): synchronize after every
     * launch, so that a device fault is reported by the launch of the kernel that caused it.
     */
    private static final boolean SYNCHRONOUS = Boolean.parseBoolean(System.getProperty("logz.cuda.sync",
            String.valueOf("1".equals(System.getenv("LOGZ_CUDA_SYNC")))));

    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    private final CUmodule module = new CUmodule();
    private final Map<String, CUfunction> functions = new HashMap<>();
    private final TreeMap<Long, Allocation> allocations = new TreeMap<>();
    private final cublasHandle cublas;
    private final String cublasNote;
    private final String description;
    private final int multiprocessors;
    private boolean closed;

    /**
     * Why the GPU backend cannot run here, or empty when it can. Checks, in order, JCuda on the class
     * path, the driver (cuDriverGetVersion before any other driver call), a device, and the kernels.
     * Probed once.
     */
    static String probe() {
        String result = probe;
        if (result == null) {
            synchronized (JCudaDevice.class) {
                result = probe;
                if (result == null) {
                    result = probeOnce();
                    probe = result;
                }
            }
        }
        return result;
    }

    private static String probeOnce() {
        try {
            JCudaDriver.setExceptionsEnabled(true);
            int[] version = new int[1];
            cuDriverGetVersion(version);
            if (version[0] < 12000) {
                return "the CUDA driver supports CUDA " + versionText(version[0]) + "; logz needs 12.0 or newer";
            }
            cuInit(0);
            int[] count = new int[1];
            cuDeviceGetCount(count);
            if (count[0] == 0) {
                return "no CUDA device (driver " + versionText(version[0]) + " found none)";
            }
            if (!KernelImages.built()) {
                return "kernels not built (nvcc was not found when kernels-cu was built)";
            }
            return "";
        } catch (UnsatisfiedLinkError e) {
            String m = String.valueOf(e.getMessage());
            return m.contains("libcuda.so") ? "no CUDA driver (libcuda.so.1 not found)"
                    : "no CUDA driver (JCuda's driver library did not load: " + m.lines().findFirst().orElse(m) + ")";
        } catch (NoClassDefFoundError e) {
            return "JCuda is not on the class path or failed to initialize (" + e.getMessage() + ")";
        } catch (CudaException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("CUDA_ERROR_NO_DEVICE")) {
                return "no CUDA device";
            }
            return "the CUDA driver failed to initialize (" + m + ")";
        }
    }

    private static String versionText(int version) {
        return version / 1000 + "." + version % 1000 / 10;
    }

    JCudaDevice() {
        String reason = probe();
        if (!reason.isEmpty()) {
            throw new IllegalStateException(reason);
        }
        int[] version = new int[1];
        cuDriverGetVersion(version);
        cuDeviceGet(device, 0);
        cuDevicePrimaryCtxRetain(context, device);
        // from here on a failure must give the primary context (and the module) back
        boolean loaded = false;
        try {
            cuCtxSetCurrent(context);
            loadModule(version[0]);
            loaded = true;
            int[] sms = new int[1];
            cuDeviceGetAttribute(sms, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
            multiprocessors = sms[0];
            byte[] name = new byte[256];
            cuDeviceGetName(name, name.length, device);
            cublasHandle handle = null;
            String note;
            try {
                JCublas2.setExceptionsEnabled(true);
                handle = new cublasHandle();
                JCublas2.cublasCreate(handle);
                note = "cuBLAS SGEMM";
            } catch (UnsatisfiedLinkError | NoClassDefFoundError | CudaException e) {
                handle = null;
                note = "cuBLAS missing (libcublas.so.12 did not load), using the tiled GEMM kernels";
            }
            cublas = handle;
            cublasNote = note;
            description = new String(name).trim().replace("\0", "") + ", " + multiprocessors + " SMs, driver "
                    + versionText(version[0]) + ", " + cublasNote + (SYNCHRONOUS ? ", synchronous launches (debug)" : "");
        } catch (RuntimeException | Error e) {
            if (loaded) {
                quietly(() -> cuModuleUnload(module), e);
            }
            quietly(() -> cuDevicePrimaryCtxRelease(device), e);
            throw e;
        }
    }

    /** Runs a release step; a failure is attached to {@code primary} instead of hiding it. */
    private static void quietly(Runnable step, Throwable primary) {
        try {
            step.run();
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        }
    }

    private void loadModule(int driverVersion) {
        try {
            cuModuleLoadData(module, KernelImages.forDriver(driverVersion));
        } catch (CudaException e) {
            if (driverVersion < KernelImages.FATBIN_DRIVER) {
                throw e;
            }
            // a driver that cannot load this toolkit's SASS may still JIT the lowered PTX
            cuModuleLoadData(module, KernelImages.loweredPtx());
        }
    }

    String cublasNote() {
        return cublasNote;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public GemmPath gemmPath() {
        return cublas != null ? GemmPath.BLAS : GemmPath.TILED;
    }

    @Override
    public int concurrentBlocks() {
        return 8 * multiprocessors;
    }

    @Override
    public long freeBytes() {
        cuCtxSetCurrent(context);
        long[] free = new long[1];
        long[] total = new long[1];
        cuMemGetInfo(free, total);
        return free[0];
    }

    @Override
    public long allocate(long bytes) {
        cuCtxSetCurrent(context);
        Allocation a = new Allocation(bytes);
        try {
            cuMemAlloc(a, bytes);
        } catch (CudaException e) {
            if (String.valueOf(e.getMessage()).contains(CUresult.stringFor(CUresult.CUDA_ERROR_OUT_OF_MEMORY))) {
                long[] free = new long[1];
                long[] total = new long[1];
                cuMemGetInfo(free, total);
                throw new DeviceMemoryException(bytes, free[0]);
            }
            throw e;
        }
        allocations.put(a.address(), a);
        return a.address();
    }

    @Override
    public void free(long pointer) {
        cuCtxSetCurrent(context);
        Allocation a = allocations.remove(pointer);
        if (a == null) {
            throw new IllegalArgumentException("not a device allocation: " + pointer);
        }
        cuMemFree(a);
    }

    /** A JCuda pointer to an address inside one of this device's allocations. */
    private CUdeviceptr at(long address) {
        Map.Entry<Long, Allocation> e = allocations.floorEntry(address);
        if (e == null || address > e.getKey() + e.getValue().bytes) {
            throw new IllegalArgumentException("address " + address + " is not device memory of this device");
        }
        return e.getValue().withByteOffset(address - e.getKey());
    }

    @Override
    public void zero(long pointer, long bytes) {
        cuCtxSetCurrent(context);
        cuMemsetD8(at(pointer), (byte) 0, bytes);
    }

    @Override
    public void copy(long dst, long src, long bytes) {
        cuCtxSetCurrent(context);
        cuMemcpyDtoD(at(dst), at(src), bytes);
    }

    @Override
    public void put(long dst, float[] src, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyHtoD(at(dst), Pointer.to(src).withByteOffset(4L * offset), 4L * count);
    }

    @Override
    public void put(long dst, double[] src, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyHtoD(at(dst), Pointer.to(src).withByteOffset(8L * offset), 8L * count);
    }

    @Override
    public void put(long dst, int[] src, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyHtoD(at(dst), Pointer.to(src).withByteOffset(4L * offset), 4L * count);
    }

    @Override
    public void get(long src, float[] dst, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyDtoH(Pointer.to(dst).withByteOffset(4L * offset), at(src), 4L * count);
    }

    @Override
    public void get(long src, double[] dst, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyDtoH(Pointer.to(dst).withByteOffset(8L * offset), at(src), 8L * count);
    }

    @Override
    public void get(long src, int[] dst, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyDtoH(Pointer.to(dst).withByteOffset(4L * offset), at(src), 4L * count);
    }

    @Override
    public void get(long src, long[] dst, int offset, int count) {
        cuCtxSetCurrent(context);
        cuMemcpyDtoH(Pointer.to(dst).withByteOffset(8L * offset), at(src), 8L * count);
    }

    @Override
    public void launch(String name, int gridX, int gridY, int blockX, int blockY, int sharedBytes, KernelArgs args) {
        Launch.checkShape(name, gridX, gridY, blockX, blockY, sharedBytes);
        cuCtxSetCurrent(context);
        CUfunction f = functions.computeIfAbsent(name, n -> {
            CUfunction function = new CUfunction();
            cuModuleGetFunction(function, module, n);
            return function;
        });
        Pointer[] params = new Pointer[args.list().size()];
        for (int i = 0; i < params.length; i++) {
            KernelArgs.Arg a = args.list().get(i);
            params[i] = switch (a.kind()) {
                case 'i' -> Pointer.to(new int[] {(int) a.bits()});
                case 'f' -> Pointer.to(new float[] {Float.intBitsToFloat((int) a.bits())});
                case 'd' -> Pointer.to(new double[] {Double.longBitsToDouble(a.bits())});
                default -> Pointer.to(new long[] {a.bits()});
            };
        }
        try {
            cuLaunchKernel(f, gridX, gridY, 1, blockX, blockY, 1, sharedBytes, null, Pointer.to(params), null);
            if (SYNCHRONOUS) {
                cuCtxSynchronize();
            }
        } catch (CudaException e) {
            throw new IllegalStateException("kernel " + name + " (" + Launch.shape(gridX, gridY, blockX, blockY, sharedBytes)
                    + "): " + e.getMessage() + (SYNCHRONOUS ? "" : "; an asynchronous fault may come from an earlier launch: "
                    + "rerun with LOGZ_CUDA_SYNC=1 to name the kernel that failed"), e);
        }
    }

    @Override
    public void sgemm(boolean transA, boolean transB, int m, int n, int k, float alpha, long a, int lda, long b, int ldb,
                      float beta, long c, int ldc) {
        if (cublas == null) {
            throw new IllegalStateException("cuBLAS is not available; use the tiled GEMM path");
        }
        cuCtxSetCurrent(context);
        JCublas2.cublasSgemm(cublas, transA ? cublasOperation.CUBLAS_OP_T : cublasOperation.CUBLAS_OP_N,
                transB ? cublasOperation.CUBLAS_OP_T : cublasOperation.CUBLAS_OP_N, m, n, k, Pointer.to(new float[] {alpha}),
                at(a), lda, at(b), ldb, Pointer.to(new float[] {beta}), at(c), ldc);
    }

    @Override
    public void synchronize() {
        cuCtxSetCurrent(context);
        cuCtxSynchronize();
    }

    /**
     * Frees every allocation, the cuBLAS handle, the module and the primary context, each even when an
     * earlier step fails (after a sticky device error every call fails); the first failure is thrown
     * at the end with the others suppressed.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException first = null;
        List<Runnable> steps = new ArrayList<>();
        steps.add(() -> cuCtxSetCurrent(context));
        for (Allocation a : allocations.values()) {
            steps.add(() -> cuMemFree(a));
        }
        if (cublas != null) {
            steps.add(() -> JCublas2.cublasDestroy(cublas));
        }
        steps.add(() -> cuModuleUnload(module));
        steps.add(() -> cuDevicePrimaryCtxRelease(device));
        allocations.clear();
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
