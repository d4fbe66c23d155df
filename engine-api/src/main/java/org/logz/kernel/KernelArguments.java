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

    static int cells(int count, int levels) {
        long cells = (long) count * levels;
        if (levels < 1 || cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(count + " chains × " + levels + " levels do not fit one vector");
        }
        return (int) cells;
    }
}
