package org.logz.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * What the emulator's profile mode ({@code LOGZ_EMULATOR_CHECKS=profile}, kernels-cu {@code emu_profile.cpp}) counted
 * for each kernel launch since the last {@link #take()}: per warp instruction, the 32-byte sectors of global memory
 * its lanes touched against the fewest that hold the bytes they asked for, the shared-memory bank conflict degree,
 * and whether a basic block ran with inactive lanes; per launch, the distinct sectors touched. Lanes are grouped into
 * warp instructions by instruction and execution count within each barrier interval (SIMT with reconvergence).
 */
public final class EmulatorProfile {
    private EmulatorProfile() {
    }

    /**
     * One launch.
     *
     * @param globalRequests   warp-level global loads and stores
     * @param globalSectors    32-byte sectors they touched
     * @param globalMinSectors the fewest sectors that hold the bytes they asked for
     * @param distinctSectors  distinct sectors of the launch (its compulsory DRAM traffic / 32)
     * @param sharedRequests   warp-level shared-memory accesses
     * @param sharedWavefronts their bank-conflict degrees summed (1 per conflict-free access)
     * @param sharedMaxWay     the worst conflict degree
     * @param blocks           warp-level basic blocks executed
     * @param divergentBlocks  those with some lane of the warp inactive
     */
    public record Launch(String kernel, int[] grid, int[] block, long sharedBytes, long globalRequests,
                         long globalSectors, long globalMinSectors, long distinctSectors, long sharedRequests,
                         long sharedWavefronts, long sharedMaxWay, long blocks, long divergentBlocks) {
        /** Fewest sectors over sectors touched: 1 for perfectly coalesced access (and for a launch with none). */
        public double coalescing() {
            return globalSectors == 0 ? 1 : (double) globalMinSectors / globalSectors;
        }

        /** Mean bank-conflict degree of shared accesses: 1 when conflict-free. */
        public double bankWays() {
            return sharedRequests == 0 ? 1 : (double) sharedWavefronts / sharedRequests;
        }

        /** Fraction of warp-level basic blocks with inactive lanes. */
        public double divergence() {
            return blocks == 0 ? 0 : (double) divergentBlocks / blocks;
        }

        /** Bytes of the sectors touched: L1-to-L2 traffic with no reuse in L1. */
        public long trafficBytes() {
            return 32 * globalSectors;
        }

        /** Bytes of the distinct sectors: DRAM traffic with a cache as large as the data. */
        public long compulsoryBytes() {
            return 32 * distinctSectors;
        }

        public int threadsPerBlock() {
            return block[0] * block[1] * block[2];
        }
    }

    /** Whether launches are being profiled: the emulator's instrumented library is loaded in profile mode. */
    public static boolean active() {
        return EmulatorNative.loadError().isEmpty() && EmulatorChecks.configured().profile()
                && EmulatorNative.profileBuilt();
    }

    /** The launches profiled since the last call, in order. */
    public static List<Launch> take() {
        if (!active()) {
            throw new IllegalStateException("the emulator is not in profile mode (LOGZ_EMULATOR_CHECKS=profile"
                    + (EmulatorNative.loadError().isEmpty() ? "" : "; " + EmulatorNative.loadError()) + ")");
        }
        List<Launch> launches = new ArrayList<>();
        for (String line : EmulatorNative.takeProfile().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t");
            launches.add(new Launch(f[0], dims(f[1]), dims(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                    Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]),
                    Long.parseLong(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11]), Long.parseLong(f[12])));
        }
        return launches;
    }

    private static int[] dims(String text) {
        String[] p = text.split(",");
        return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2])};
    }
}
