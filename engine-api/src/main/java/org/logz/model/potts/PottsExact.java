package org.logz.model.potts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.logz.base.UserException;

/**
 * Exact log Z of the q-state Potts model on the L × L torus, {@code Z = Σ_x exp(J Σ_<ij> δ(x_i, x_j))} over the
 * q^{L²} colourings, by a site-by-site transfer matrix (Baxter, Exactly Solved Models, §1.7's helical sweep).
 *
 * <p>Sites go in row-major order; after site (r, c) the state is the colour of the latest site of each column
 * (row r in columns 0 .. c, row r - 1 after), a vector of q^L weights. Adding site (r, c) replaces column c's digit y by
 * the new colour x with the factor {@code e^{J [δ(x, y) + δ(x, x_{r,c-1}) + δ(x, x_{r,0}) at c = L - 1]}}, summed over y in O(q) as
 * {@code Σ_y v_y + (e^J - 1) v_x}: the
 * vertical bond, the horizontal one and the row's wrap-around, all inside the state, so the columns close without
 * more. The rows close by fixing row 0: for each row-0 colouring s_0 the vector starts at s_0 with its row's bonds,
 * runs rows 1 .. L-1, and ends with the bonds between row L-1 and s_0. Z is invariant under permuting colours, so only
 * one s_0 per pattern is run (colours numbered in order of first appearance) with weight {@code q!/(q-k)!}, k its
 * number of colours. Work {@code R L² q^L} with R the number of patterns, the patterns shared among the cores; the
 * vector is rescaled after every row.
 */
public final class PottsExact {
    /** The largest work {@link #work} the transfer matrix takes on (q = 10, L = 6: 7.3e9). */
    public static final double MAX_WORK = 1e10;
    /** What the refusal and the docs say of the limit. */
    public static final String LIMIT = "R·L²·q^L ≤ 1e10 operations, R the colour patterns of a row (even L: q = 2: L ≤ 12; "
            + "q = 3: L ≤ 8; q = 4 to 10: L ≤ 6; q = 11 to 80: L ≤ 4; q ≥ 81: L = 2)";

    private PottsExact() {
    }

    /** Whether {@link #logZ} takes on the model. */
    public static boolean feasible(int colours, int size) {
        return work(colours, size) <= MAX_WORK;
    }

    /** The transfer matrix's work: row-0 patterns × L² sites × q^L states, +∞ where it overflows. */
    public static double work(int colours, int size) {
        return patterns(colours, size) * (double) size * size * Math.pow(colours, size);
    }

    /** Exact log Z of the model at β = 1 (including {@code L² log q}), or a one-line error beyond {@link #LIMIT}. */
    public static double logZ(Potts model) {
        return logZ(model.colours(), model.size(), model.coupling());
    }

    /**
     * Exact log Z of q colours on the L × L torus with coupling J (any L ≥ 2, odd included; at inverse temperature β
     * pass β J), by the transfer matrix, or a one-line error beyond {@link #LIMIT}.
     */
    public static double logZ(int colours, int size, double coupling) {
        if (colours < 2 || size < 2 || !(coupling >= 0) || !Double.isFinite(coupling)) {
            throw new UserException("the Potts transfer matrix needs q ≥ 2, L ≥ 2 and a finite J ≥ 0");
        }
        if (!feasible(colours, size)) {
            throw new UserException("the transfer matrix of " + colours + "^" + size + " row states would take "
                    + String.format(java.util.Locale.ROOT, "%.1e", work(colours, size)) + " operations; exact log Z needs "
                    + LIMIT);
        }
        int states = (int) Math.pow(colours, size);
        int[] power = new int[size + 1];
        power[0] = 1;
        for (int c = 1; c <= size; c++) {
            power[c] = power[c - 1] * colours;
        }
        // short, not byte: colours run to 255, past a signed byte
        short[][] digit = new short[size][states];
        for (int c = 0; c < size; c++) {
            for (int state = 0; state < states; state++) {
                digit[c][state] = (short) (state / power[c] % colours);
            }
        }
        // Every factor is taken relative to the largest the site can bring, e^{J (1 + m)} with m its left and wrap bonds
        // (0 in column 0, 1 inside, 2 in the last column; 2L per row in all), so J up to its limit never overflows:
        // e^{J (k - m)} for the k of them that agree, and the vertical bond's Σ_y v_y e^{J δ(x, y)} as
        // e^J (e^{-J} Σ_y v_y + (1 - e^{-J}) v_x). A row-0 pattern whose every entry then underflows (J beyond ~700)
        // weighs e^{-J} or less against the uniform one, which always keeps a factor near 1: it adds nothing.
        double[] bond = {Math.exp(-2 * coupling), Math.exp(-coupling), 1};
        List<int[]> patterns = new ArrayList<>();
        int[] first = new int[size];
        do {
            patterns.add(first.clone());
        } while (nextPattern(first, colours));
        // the patterns are independent: each thread runs its own vectors; the terms keep the patterns' order, so the
        // sum, and log Z, do not depend on the threads
        double[] terms = patterns.parallelStream()
                .mapToDouble(p -> patternLogZ(p, colours, coupling, bond, power, digit, states)).toArray();
        double max = Arrays.stream(terms).max().orElseThrow();
        double total = 0;
        for (double t : terms) {
            total += Math.exp(t - max);
        }
        return max + Math.log(total);
    }

    /**
     * The log of the colourings whose row 0 is the pattern {@code first} or a permutation of its colours: the transfer
     * matrix from row 0 through row L-1 and back to row 0 ({@code -Infinity} where every entry underflowed).
     */
    private static double patternLogZ(int[] first, int colours, double coupling, double[] bond, int[] power,
            short[][] digit, int states) {
        int size = first.length;
        // keep and other: the vertical bond's factors, relative to e^J as bond's are (see logZ)
        double keep = -Math.expm1(-coupling);
        double other = Math.exp(-coupling);
        double[] v = new double[states];
        double[] w = new double[states];
        int used = 0;
        int s0 = 0;
        int bonds = 0;
        for (int c = 0; c < size; c++) {
            used = Math.max(used, first[c] + 1);
            s0 += first[c] * power[c];
            bonds += first[c] == first[(c + 1) % size] ? 1 : 0;
        }
        v[s0] = 1;
        double logScale = bonds * coupling;
        for (int r = 1; r < size; r++) {
            for (int c = 0; c < size; c++) {
                int stride = power[c];
                short[] left = c > 0 ? digit[c - 1] : null;
                short[] wrap = c == size - 1 ? digit[0] : null;
                int shift = 2 - (left == null ? 0 : 1) - (wrap == null ? 0 : 1);
                for (int high = 0; high < states; high += stride * colours) {
                    for (int base = high; base < high + stride; base++) {
                        double sum = 0;
                        for (int y = 0; y < colours; y++) {
                            sum += v[base + y * stride];
                        }
                        sum *= other;
                        int l = left == null ? -1 : left[base];
                        int wr = wrap == null ? -1 : wrap[base];
                        for (int x = 0; x < colours; x++) {
                            int at = base + x * stride;
                            w[at] = bond[shift + (x == l ? 1 : 0) + (x == wr ? 1 : 0)] * (sum + keep * v[at]);
                        }
                    }
                }
                double[] t = v;
                v = w;
                w = t;
            }
            double rowMax = 0;
            for (double value : v) {
                rowMax = Math.max(rowMax, value);
            }
            if (rowMax == 0) {
                return Double.NEGATIVE_INFINITY;
            }
            for (int state = 0; state < states; state++) {
                v[state] /= rowMax;
            }
            logScale += Math.log(rowMax) + 2 * coupling * size;
        }
        double sum = 0;
        for (int state = 0; state < states; state++) {
            int agree = 0;
            for (int c = 0; c < size; c++) {
                agree += digit[c][state] == first[c] ? 1 : 0;
            }
            sum += v[state] * Math.exp(coupling * (agree - size));
        }
        return logScale + coupling * size + Math.log(sum) + logFallingFactorial(colours, used);
    }

    /** log(q!/(q-k)!): the colourings of one pattern of k colours. */
    private static double logFallingFactorial(int colours, int k) {
        double s = 0;
        for (int i = 0; i < k; i++) {
            s += Math.log(colours - i);
        }
        return s;
    }

    /**
     * The next restricted growth string of {@code p} (each entry at most one above the largest before it, below q), in
     * lexicographic order; false after the last.
     */
    private static boolean nextPattern(int[] p, int colours) {
        for (int i = p.length - 1; i > 0; i--) {
            int prefixMax = 0;
            for (int j = 0; j < i; j++) {
                prefixMax = Math.max(prefixMax, p[j]);
            }
            if (p[i] <= prefixMax && p[i] + 1 < colours) {
                p[i]++;
                Arrays.fill(p, i + 1, p.length, 0);
                return true;
            }
        }
        return false;
    }

    /** The number of restricted growth strings of length L over at most q colours: Σ_{k ≤ q} S(L, k). */
    static double patterns(int colours, int size) {
        double[] stirling = new double[colours + 1];
        stirling[0] = 1;
        for (int n = 1; n <= size; n++) {
            for (int k = Math.min(n, colours); k >= 1; k--) {
                stirling[k] = k * stirling[k] + stirling[k - 1];
            }
            stirling[0] = 0;
        }
        double sum = 0;
        for (int k = 1; k <= colours; k++) {
            sum += stirling[k];
        }
        return sum;
    }
}
