package org.logz.cli;

import org.logz.api.Logz;
import org.logz.memory.InsufficientMemoryException;

/**
 * The hostile review's J43 in a JVM of its own (run by {@link MemoryCheckTest} with a small heap): an RBM of one
 * visible and {@code args[0]} hidden units through the Java API; prints the refusal and exits 2, or the estimate.
 */
final class HugeRbmProbe {
    private HugeRbmProbe() {
    }

    public static void main(String[] args) {
        int hidden = Integer.parseInt(args[0]);
        try {
            System.out.println(Logz.rbm(new float[1][hidden], new float[1], new float[hidden]).chains(2).steps(2).run()
                    .logZ());
        } catch (InsufficientMemoryException e) {
            System.out.println("refused: " + e.getMessage());
            System.exit(2);
        }
    }
}
