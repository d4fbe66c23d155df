package org.logz.kernel;

import java.util.List;
import java.util.Map;

/**
 * Optional backend capability ({@link org.logz.backend.ParticleBackend#capability}): what a GPU profiler counts for
 * each kernel launch, and the compiler's resources of every kernel. The CUDA emulator offers it in its profile mode
 * ({@code LOGZ_EMULATOR_CHECKS=profile}, DESIGN §7 "Kernel profiles"): lanes are grouped into warp instructions by
 * instruction and execution count within each barrier interval.
 */
public interface KernelProfiling {
    /**
     * One launch.
     *
     * @param threadsPerBlock  threads of each block
     * @param blocks           blocks of the grid
     * @param dynamicShared    dynamic shared-memory bytes per block
     * @param globalRequests   warp-level global loads and stores
     * @param globalSectors    the 32-byte sectors they touched
     * @param globalMinSectors the fewest sectors that hold the bytes they asked for
     * @param distinctSectors  distinct sectors of the launch (its compulsory DRAM traffic / 32)
     * @param sharedRequests   warp-level shared-memory accesses
     * @param sharedWavefronts the wavefronts they took (the most distinct words of one bank, summed)
     * @param sharedIdeal      the fewest wavefronts their distinct words need (ceil(words / 32), summed)
     * @param sharedMaxWay     the worst conflict degree: wavefronts over the fewest, rounded up, of one access
     * @param basicBlocks      warp-level basic blocks executed
     * @param divergentBlocks  those with some lane of the warp inactive
     */
    record Launch(String kernel, int threadsPerBlock, long blocks, long dynamicShared, long globalRequests,
                  long globalSectors, long globalMinSectors, long distinctSectors, long sharedRequests,
                  long sharedWavefronts, long sharedIdeal, long sharedMaxWay, long basicBlocks,
                  long divergentBlocks) {
        /** Fewest sectors over sectors touched: 1 for perfectly coalesced access (and for none). */
        public double coalescing() {
            return globalSectors == 0 ? 1 : (double) globalMinSectors / globalSectors;
        }

        /** Wavefronts over the fewest possible, over all shared accesses: 1 when conflict-free. */
        public double bankWays() {
            return sharedIdeal == 0 ? 1 : (double) sharedWavefronts / sharedIdeal;
        }

        /** Fraction of warp-level basic blocks with inactive lanes. */
        public double divergence() {
            return basicBlocks == 0 ? 0 : (double) divergentBlocks / basicBlocks;
        }

        /** Bytes of the distinct sectors touched: DRAM traffic with a cache as large as the data. */
        public long compulsoryBytes() {
            return 32 * distinctSectors;
        }
    }

    /**
     * ptxas's account of one kernel for one architecture.
     *
     * @param registers    registers per thread
     * @param spillStores  bytes of spill stores
     * @param spillLoads   bytes of spill loads
     * @param staticShared bytes of static shared memory per block
     * @param stack        bytes of stack frame per thread
     */
    record Resources(String kernel, int registers, int spillStores, int spillLoads, int staticShared, int stack) {
    }

    /** The launches since the last call, in order. */
    List<Launch> take();

    /** Every kernel's resources on {@code arch} ("sm_80", "sm_90"), by name; empty where nvcc was not found. */
    Map<String, Resources> resources(String arch);
}
