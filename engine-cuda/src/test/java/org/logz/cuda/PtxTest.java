package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import jcuda.nvptxcompiler.JNvPTXCompiler;
import jcuda.nvptxcompiler.nvPTXCompileResult;
import jcuda.nvptxcompiler.nvPTXCompilerHandle;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lowered PTX (for drivers older than R580) compiles with the PTX compiler of CUDA 12.0 that JCuda
 * 12.0.0 bundles, which needs no driver: a kernel that an older driver could not JIT fails the build.
 */
class PtxTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void loweredPtxCompilesWithTheCuda12PtxCompiler(String arch) {
        Assumptions.assumeTrue(KernelImages.built(), "kernels not built (no nvcc when kernels-cu was built)");
        byte[] ptx = KernelImages.loweredPtx();
        assertTrue(new String(ptx, 0, 200, StandardCharsets.US_ASCII).contains(".version 8.0"));
        nvPTXCompilerHandle handle = new nvPTXCompilerHandle();
        JNvPTXCompiler.setExceptionsEnabled(false);
        assertEquals(nvPTXCompileResult.NVPTXCOMPILE_SUCCESS, JNvPTXCompiler.nvPTXCompilerCreate(handle, ptx.length - 1, ptx));
        int result = JNvPTXCompiler.nvPTXCompilerCompile(handle, 1, new String[] {"--gpu-name=" + arch});
        String log = "";
        if (result != nvPTXCompileResult.NVPTXCOMPILE_SUCCESS) {
            long[] size = new long[1];
            JNvPTXCompiler.nvPTXCompilerGetErrorLogSize(handle, size);
            byte[] text = new byte[(int) size[0]];
            JNvPTXCompiler.nvPTXCompilerGetErrorLog(handle, text);
            log = new String(text, StandardCharsets.US_ASCII);
        }
        assertEquals(nvPTXCompileResult.NVPTXCOMPILE_SUCCESS, result, "PTX compile for " + arch + " failed: " + log);
        long[] size = new long[1];
        JNvPTXCompiler.nvPTXCompilerGetCompiledProgramSize(handle, size);
        assertTrue(size[0] > 0);
        JNvPTXCompiler.nvPTXCompilerDestroy(handle);
    }
}
