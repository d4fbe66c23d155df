package org.logz.train;

import org.logz.base.UserException;

/**
 * How {@link RbmTrainer} draws the negative phase of the likelihood gradient {@code E_data[x hᵀ] - E_model[x hᵀ]}: from
 * each minibatch example after k Gibbs sweeps (CD-k, Hinton 2002), or from persistent chains that each update moves one
 * sweep further under the current parameters (PCD, Tieleman 2008).
 */
public sealed interface TrainingMethod {
    /** Largest k of CD-k and largest number of persistent chains. */
    int MAX = 1 << 20;

    /** CD-k: {@code steps} Gibbs sweeps from each example of the minibatch. */
    record ContrastiveDivergence(int steps) implements TrainingMethod {
        public ContrastiveDivergence {
            if (steps < 1 || steps > MAX) {
                throw new UserException("CD-k needs k from 1 to " + MAX + ", got " + steps);
            }
        }

        @Override
        public int sweepsPerUpdate() {
            return steps;
        }

        @Override
        public int negativeSamples(int batch) {
            return batch;
        }

        @Override
        public String toString() {
            return "cd:" + steps;
        }
    }

    /** PCD: {@code chains} persistent chains, one Gibbs sweep per update. */
    record Persistent(int chains) implements TrainingMethod {
        public Persistent {
            if (chains < 1 || chains > MAX) {
                throw new UserException("PCD needs from 1 to " + MAX + " persistent chains, got " + chains);
            }
        }

        @Override
        public int sweepsPerUpdate() {
            return 1;
        }

        @Override
        public int negativeSamples(int batch) {
            return chains;
        }

        @Override
        public String toString() {
            return "pcd:" + chains;
        }
    }

    /** Gibbs sweeps each negative sample makes per update. */
    int sweepsPerUpdate();

    /** States behind each update's negative phase for minibatches of {@code batch} examples. */
    int negativeSamples(int batch);

    /**
     * {@code cd}, {@code cd:K}, {@code pcd} or {@code pcd:CHAINS}; a bare {@code pcd} keeps as many chains as a
     * minibatch has examples ({@code batchSize}).
     *
     * @throws UserException naming the forms accepted
     */
    static TrainingMethod parse(String spec, int batchSize) {
        String s = spec == null ? "" : spec.strip();
        int colon = s.indexOf(':');
        String name = colon < 0 ? s : s.substring(0, colon);
        String value = colon < 0 ? null : s.substring(colon + 1);
        switch (name) {
            case "cd":
                return new ContrastiveDivergence(value == null ? 1 : count(value, spec));
            case "pcd":
                return new Persistent(value == null ? batchSize : count(value, spec));
            default:
                throw new UserException("unknown training method '" + spec + "'; use cd, cd:K (K Gibbs sweeps "
                        + "from each example) or pcd, pcd:CHAINS (persistent chains)");
        }
    }

    private static int count(String value, String spec) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new UserException("training method '" + spec + "': '" + value + "' is not a whole number from 1 to "
                    + MAX);
        }
    }
}
