package org.logz.model.rbm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

import org.logz.base.UserException;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Local maxima of an RBM's hidden marginal
 * {@code log f(h) = Σ_x f(x, h) = bᵀh + Σ_i softplus(a_i + W_i:·h)}, found by single-unit ascent: pass
 * over the hidden units, flipping each one whose flip raises {@code log f(h)}, until a pass flips none. Since {@code Z = Σ_h f(h)}, every
 * {@code log f(h)} is a lower bound of log Z; where most of the mass sits on a few hidden
 * configurations (trained RBMs often put most of it on one, which block Gibbs sampling from noise
 * rarely reaches), the best mode found bounds log Z within a nat or two. Host code in float64; the
 * field {@code a + W h} is updated by one column per flip, so a pass over the hidden units costs
 * {@code O(N·H)}.
 */
public final class HiddenModes {
    /** Passes over the hidden units before an ascent stops regardless (each pass raises log f or ends it). */
    private static final int MAX_PASSES = 200;
    /** The least gain a flip must bring: float64 rounding of the sums must not make the ascent cycle. */
    private static final double GAIN = 1e-9;
    /**
     * How far below GAIN a flip's upper bound must fall to skip the exact gain: far above the rounding of either
     * sum, so that a skip never decides otherwise than the exact gain would.
     */
    private static final double BOUND_MARGIN = 1e-6;

    private HiddenModes() {
    }

    /**
     * The model's arrays, with W's columns also as rows ({@code wt[j·n + i] = W_ij}, which an ascent reads whole)
     * and {@code curvature[j] = Σ_i W_ij² / 8}, the largest second-order term a flip of unit j can have.
     */
    private record Params(int n, int hidden, float[] w, float[] wt, double[] curvature, float[] a, float[] b) {
        /** One copy of the model's weights, and its transpose. */
        static Params of(Rbm rbm) {
            int n = rbm.visible();
            int hidden = rbm.hidden();
            float[] w = rbm.weights();
            float[] wt = RbmFiles.transpose(w, n, hidden);
            return new Params(n, hidden, w, wt, curvature(wt, n, hidden), rbm.visibleBias(), rbm.hiddenBias());
        }

        private static double[] curvature(float[] wt, int n, int hidden) {
            double[] c = new double[hidden];
            for (int j = 0; j < hidden; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += (double) wt[j * n + i] * wt[j * n + i];
                }
                c[j] = s / 8;
            }
            return c;
        }

        /** {@code a + W h}. */
        double[] field(float[] h) {
            double[] field = new double[n];
            for (int i = 0; i < n; i++) {
                double f = a[i];
                for (int j = 0; j < hidden; j++) {
                    f += (double) w[i * hidden + j] * h[j];
                }
                field[i] = f;
            }
            return field;
        }

        double logF(float[] h) {
            return HiddenModes.logF(h, b, field(h));
        }
    }

    /**
     * A hidden configuration and its {@code log f(h)}: the units that are on, a bit each (a float per unit would hold
     * 32 times as much, and a search keeps one configuration per start).
     */
    public record Mode(BitSet on, int hidden, double logF) {
        public Mode {
            on = (BitSet) on.clone();
        }

        Mode(float[] h, double logF) {
            this(bits(h), h.length, logF);
        }

        private static BitSet bits(float[] h) {
            BitSet on = new BitSet(h.length);
            for (int j = 0; j < h.length; j++) {
                if (h[j] != 0f) {
                    on.set(j);
                }
            }
            return on;
        }

        @Override
        public BitSet on() {
            return (BitSet) on.clone();
        }

        /** The configuration as 0/1 floats. */
        public float[] h() {
            float[] h = new float[hidden];
            on.stream().forEach(j -> h[j] = 1f);
            return h;
        }
    }

    /** {@code a + W h} of each mode where {@code wanted}, summed over its hidden units in order as float64; else null. */
    static double[][] fields(Rbm rbm, List<Mode> modes, boolean[] wanted) {
        Params p = Params.of(rbm);
        double[][] fields = new double[modes.size()][];
        for (int k = 0; k < fields.length; k++) {
            if (wanted[k]) {
                fields[k] = p.field(modes.get(k).h());
            }
        }
        return fields;
    }

    /**
     * Refuses work on {@code kept} hidden configurations whose arrays the heap cannot hold: the model's arrays with W
     * twice (as rows and as columns) and a double per hidden unit, a double and a float per hidden unit and three
     * doubles per visible unit for each one worked on at once, and a bit per hidden unit for each one kept.
     */
    private static void requireMemory(Rbm rbm, long kept, String what) {
        long n = rbm.visible();
        long h = rbm.hidden();
        long concurrent = Math.min(kept, ForkJoinPool.getCommonPoolParallelism() + 1L);
        HostMemory.requireHeap(Footprint.times(2 * n * h + n + h, 4) + Footprint.times(h, 8)
                + Footprint.times(concurrent, 12 * h + 24 * n)
                + Footprint.times(kept, h / 8 + 64), what + " on an RBM of " + n + "×" + h);
    }

    /**
     * Ascents from {@code starts} uniformly random hidden configurations (Philox stream {@code MODES}
     * under {@code seed}), run in parallel; the distinct maxima, best first.
     */
    public static List<Mode> search(Rbm rbm, int starts, long seed) {
        if (starts < 1) {
            throw new UserException("a mode search needs at least one start, got " + starts);
        }
        requireMemory(rbm, starts, "the hidden-mode search of " + starts + " ascents");
        Params p = Params.of(rbm);
        int h = p.hidden();
        Mode[] found = new Mode[starts];
        IntStream.range(0, starts).parallel().forEach(s -> {
            float[] start = new float[h];
            int[] words = new int[4];
            for (int j = 0; j < h; j++) {
                if ((j & 3) == 0) {
                    Philox.block(seed, j >>> 2, s, 0, StreamTag.MODES, words);
                }
                start[j] = words[j & 3] < 0 ? 1f : 0f;
            }
            found[s] = ascend(p, start);
        });
        return distinct(Arrays.asList(found));
    }

    /** The distinct modes of {@code modes}, best first. */
    private static List<Mode> distinct(List<Mode> modes) {
        List<Mode> out = new ArrayList<>();
        Set<BitSet> seen = new HashSet<>();
        modes.stream().sorted((x, y) -> Double.compare(y.logF(), x.logF())).forEach(m -> {
            if (seen.add(m.on)) {
                out.add(m);
            }
        });
        return out;
    }

    /** The local maximum reached from {@code h} (0/1 per hidden unit, climbed in place) by greedy single flips. */
    private static Mode ascend(Params p, float[] h) {
        int n = p.n();
        int hidden = p.hidden();
        float[] wt = p.wt();
        float[] b = p.b();
        double[] field = p.field(h);
        double[] soft = new double[n];
        double[] sigmoid = new double[n];
        // softplusFast: a gain sums n differences of softplus terms, each accurate to about 1e-16, far below GAIN;
        // log1p, which the JIT does not intrinsify, made the ascents most of a visited-states bound's time
        for (int i = 0; i < n; i++) {
            soft[i] = LogSpace.softplusFast(field[i]);
            sigmoid[i] = LogSpace.sigmoid(field[i]);
        }
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            boolean flipped = false;
            for (int j = 0; j < hidden; j++) {
                double sign = h[j] == 0f ? 1 : -1;
                int column = j * n;
                // softplus(f + d) - softplus(f) <= d σ(f) + d²/8 (its second derivative is at most 1/4): a unit
                // whose bound falls clearly short of GAIN cannot flip, and costs a dot product instead of n
                // exponentials and logarithms (most units of a pass, and all of the last one)
                double linear = b[j];
                for (int i = 0; i < n; i++) {
                    linear += wt[column + i] * sigmoid[i];
                }
                if (sign * linear + p.curvature()[j] < GAIN - BOUND_MARGIN) {
                    continue;
                }
                double gain = sign * b[j];
                for (int i = 0; i < n; i++) {
                    gain += LogSpace.softplusFast(field[i] + sign * wt[column + i]) - soft[i];
                }
                if (gain > GAIN) {
                    h[j] = 1f - h[j];
                    for (int i = 0; i < n; i++) {
                        field[i] += sign * wt[column + i];
                        soft[i] = LogSpace.softplusFast(field[i]);
                        sigmoid[i] = LogSpace.sigmoid(field[i]);
                    }
                    flipped = true;
                }
            }
            if (!flipped) {
                break;
            }
        }
        double logF = logF(h, b, field);
        return new Mode(h, logF);
    }

    /**
     * A lower bound of log Z from visible states a run visited ({@code count} rows of {@code states}):
     * the largest of {@code log f(x)} over the states, of {@code log f(ĥ)} over their most likely hidden
     * configurations {@code ĥ_j = [b_j + xᵀW_:j > 0]}, and of the modes that {@code ascents} of those
     * (the best distinct ones) climb to. Every term is at most log Z; the hidden ones are usually far
     * tighter, because {@code f(h)} sums the whole visible layer out.
     */
    public static double lowerBound(Rbm rbm, float[] states, int count, int ascents) {
        requireMemory(rbm, count, "the visited states' lower bound of " + count + " states");
        Params p = Params.of(rbm);
        int n = p.n();
        int hidden = p.hidden();
        if ((long) count * n != states.length) {
            throw new UserException(count + " states of " + n + " units need " + (long) count * n
                    + " values, got " + states.length);
        }
        float[] w = p.w();
        float[] a = p.a();
        float[] b = p.b();
        Mode[] likely = new Mode[count];
        double[] visible = new double[count];
        IntStream.range(0, count).parallel().forEach(r -> {
            double[] u = new double[hidden];
            for (int j = 0; j < hidden; j++) {
                u[j] = b[j];
            }
            double s = 0;
            for (int i = 0; i < n; i++) {
                float xi = states[r * n + i];
                if (xi != 0f) {
                    s += a[i] * (double) xi;
                    for (int j = 0; j < hidden; j++) {
                        u[j] += (double) xi * w[i * hidden + j];
                    }
                }
            }
            float[] h = new float[hidden];
            for (int j = 0; j < hidden; j++) {
                s += LogSpace.softplus(u[j]);
                h[j] = u[j] > 0 ? 1f : 0f;
            }
            visible[r] = s;
            likely[r] = new Mode(h, p.logF(h));
        });
        List<Mode> candidates = distinct(Arrays.asList(likely));
        List<Mode> climbed = candidates.subList(0, Math.min(ascents, candidates.size())).parallelStream()
                .map(m -> ascend(p, m.h())).toList();
        double best = Arrays.stream(visible).max().orElse(Double.NEGATIVE_INFINITY);
        for (Mode m : candidates) {
            best = Math.max(best, m.logF());
        }
        for (Mode m : climbed) {
            best = Math.max(best, m.logF());
        }
        return best;
    }

    private static double logF(float[] h, float[] b, double[] field) {
        double s = 0;
        for (int j = 0; j < h.length; j++) {
            s += b[j] * (double) h[j];
        }
        for (double f : field) {
            s += LogSpace.softplus(f);
        }
        return s;
    }
}
