package org.logz.kernel;

/** The checks both checked kernels make, with the same messages. */
final class KernelArguments {
    private KernelArguments() {
    }

    static void beta(double beta) {
        if (!(beta >= 0 && beta <= 1)) {
            throw new IllegalArgumentException("inverse temperature " + beta + " outside [0, 1]");
        }
    }

    static void transitions(int transitions) {
        if (transitions < 0) {
            throw new IllegalArgumentException("transitions must be non-negative, got " + transitions);
        }
    }

    /** Chains {@code firstChain .. firstChain + count - 1} must have Philox particle words (32 bits, unsigned in §3). */
    static void chains(int firstChain, int count) {
        if (firstChain < 0 || (long) firstChain + count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("chains " + firstChain + " .. " + ((long) firstChain + count - 1)
                    + " outside the random streams' chain indices 0 .. " + (Integer.MAX_VALUE - 1));
        }
    }

    static int cells(int count, int levels) {
        long cells = (long) count * levels;
        if (levels < 1 || cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(count + " chains × " + levels + " levels do not fit one vector");
        }
        return (int) cells;
    }
}
