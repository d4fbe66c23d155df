package org.logz.estimate.tempered;

import java.util.Arrays;

import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The host side of parallel tempering's swaps (replica exchange; Swendsen &amp; Wang 1986, Geyer 1991): M independent
 * ladders of K levels with one chain at each level, chain {@code g·K + j} in ladder g. Chains stay where they are on
 * the backend; what moves is the level each chain sits at, a permutation within its ladder.
 *
 * <p>Swaps follow the deterministic even-odd scheme (Okabe et al. 2001; Syed, Bouchard-Côté, Deligiannidis &amp;
 * Doucet 2021, "Non-reversible parallel tempering", JRSS B, §3): iteration t proposes the pairs (k, k + 1) with
 * {@code k ≡ t mod 2} in every ladder, each accepted with probability
 * {@code min(1, f_{k+1}(x_a) f_k(x_b) / (f_k(x_a) f_{k+1}(x_b)))}, chain a at level k and b at k + 1. Each swap
 * leaves the product of the levels' distributions invariant; alternating the two sets makes a replica's walk over the
 * levels persistent, so a round trip takes O(K) iterations instead of the reversible scheme's O(K²) (Syed et al.,
 * Theorem 3), and the round-trip rate approaches {@code 1/(2 + 2Λ)} where {@code Λ = Σ_k r_k} is the communication
 * barrier of the path (their eq. 15), estimated from the pairs' rejection rates r_k.
 *
 * <p>Each swap's uniform is Philox at counter (pair k, ladder g, step, {@link StreamTag#SWAP}), so swaps are the same
 * on every backend that returns the same log densities.
 */
final class ReplicaExchange {
    /** The direction of a replica since it last touched an end of the ladder: not yet at one, up from β = 0, down. */
    private static final byte UNKNOWN = 0;
    private static final byte UP = 1;
    private static final byte DOWN = 2;

    private final int ladders;
    private final int k;
    private final int[] levelOf;
    private final int[] chainAt;
    private final byte[] direction;
    private final long[] attempts;
    private final long[] accepts;
    private final long[] roundTrips;
    private final int[] block = new int[4];

    /** Chain {@code g·K + j} starts at level j of ladder g. */
    ReplicaExchange(int ladders, int levels) {
        this.ladders = ladders;
        this.k = levels;
        int n = ladders * levels;
        levelOf = new int[n];
        chainAt = new int[n];
        for (int c = 0; c < n; c++) {
            levelOf[c] = c % levels;
            chainAt[c] = c;
        }
        direction = new byte[n];
        attempts = new long[levels - 1];
        accepts = new long[levels - 1];
        roundTrips = new long[ladders];
    }

    int chains() {
        return levelOf.length;
    }

    /** The level each chain sits at (a copy). */
    int[] levels() {
        return levelOf.clone();
    }

    /** The inverse temperature of every chain under {@code betas}. */
    double[] chainBetas(double[] betas) {
        double[] out = new double[levelOf.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = betas[levelOf[c]];
        }
        return out;
    }

    /**
     * Indices into the chains' rows of K log densities ({@code c·K + level}): every chain's own level, then the level
     * below it, then the level above it (its own at the ends of the ladder), 3N in all.
     */
    int[] neighbourIndices() {
        int n = levelOf.length;
        int[] out = new int[3 * n];
        for (int c = 0; c < n; c++) {
            int l = levelOf[c];
            out[c] = c * k + l;
            out[n + c] = c * k + Math.max(l - 1, 0);
            out[2 * n + c] = c * k + Math.min(l + 1, k - 1);
        }
        return out;
    }

    /**
     * One round of swaps at iteration {@code step}: the pairs (j, j + 1) with {@code j ≡ step mod 2} of every ladder.
     *
     * @param picked the log densities at {@link #neighbourIndices()}: 3N values
     */
    void swap(double[] picked, long seed, int step) {
        int n = levelOf.length;
        for (int g = 0; g < ladders; g++) {
            for (int j = step & 1; j + 1 < k; j += 2) {
                int a = chainAt[g * k + j];
                int b = chainAt[g * k + j + 1];
                // log f_{j+1}(x_a) + log f_j(x_b) - log f_j(x_a) - log f_{j+1}(x_b)
                double logRatio = picked[2 * n + a] + picked[n + b] - picked[a] - picked[b];
                attempts[j]++;
                if (!(logRatio >= 0) && !(Math.log(uniform(seed, j, g, step)) < logRatio)) {
                    continue;
                }
                accepts[j]++;
                levelOf[a] = j + 1;
                levelOf[b] = j;
                chainAt[g * k + j] = b;
                chainAt[g * k + j + 1] = a;
            }
        }
        for (int c = 0; c < n; c++) {
            track(c);
        }
    }

    /** Round trips: β = 0 to β = 1 and back (Katzgraber et al. 2006), counted when a replica that went down is back at 0. */
    private void track(int c) {
        if (levelOf[c] == 0) {
            if (direction[c] == DOWN) {
                roundTrips[c / k]++;
            }
            direction[c] = UP;
        } else if (levelOf[c] == k - 1 && direction[c] == UP) {
            direction[c] = DOWN;
        }
    }

    private double uniform(long seed, int pair, int ladder, int step) {
        Philox.block(seed, pair, ladder, step, StreamTag.SWAP, block);
        return Philox.toUniformDouble(block[0], block[1]);
    }

    /** The acceptance rate of each neighbouring pair since the last {@link #resetCounts()}; NaN where none was proposed. */
    double[] acceptance() {
        double[] out = new double[k - 1];
        for (int j = 0; j < out.length; j++) {
            out[j] = attempts[j] == 0 ? Double.NaN : (double) accepts[j] / attempts[j];
        }
        return out;
    }

    /** Round trips of each ladder's replicas since the last {@link #resetCounts()}. */
    long[] roundTrips() {
        return roundTrips.clone();
    }

    /** Forgets the swap counts, the round trips and the replicas' directions: only trips made after it count. */
    void resetCounts() {
        Arrays.fill(attempts, 0);
        Arrays.fill(accepts, 0);
        Arrays.fill(roundTrips, 0);
        Arrays.fill(direction, UNKNOWN);
    }
}
