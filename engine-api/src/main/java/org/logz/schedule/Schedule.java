package org.logz.schedule;

import java.util.Locale;

import org.logz.base.UserException;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.numeric.Decimal;

/**
 * An annealing schedule {@code 0 = β_0 < β_1 < ... < β_K = 1}, validated on construction.
 *
 * <p>Named forms accepted by {@link #parse(String, int)}:
 * <ul>
 *   <li>{@code linear}: {@code β_k = k/K};</li>
 *   <li>{@code geometric[:βmin]}: {@code β_1 .. β_K} geometric from βmin (default 1e-3) to 1;</li>
 *   <li>{@code sigmoid[:δ]}: {@code σ(δ(2t/K - 1))} rescaled to [0, 1] (Grosse, Ghahramani &amp; Adams
 *       2015), δ = 4 by default; dense at both ends;</li>
 *   <li>{@code piecewise:β/steps,β/steps,...}: linear segments, each ending at β after the given
 *       number of steps, the last ending at 1;</li>
 *   <li>{@code salakhutdinov}: {@code piecewise:0.5/500,0.9/4000,1/10000}, the 14,500-step schedule
 *       of Salakhutdinov &amp; Murray (2008) for MNIST RBMs; {@code salakhutdinov:K} the same three segments with
 *       K steps shared 500 : 4000 : 10000 (largest remainders), so that K = 14500 is the original.</li>
 * </ul>
 */
public record Schedule(String name, double[] betas) {
    public Schedule {
        betas = betas.clone();
        if (betas.length < 2) {
            throw new UserException("a schedule needs at least one step (two temperatures)");
        }
        if (betas[0] != 0.0 || betas[betas.length - 1] != 1.0) {
            throw new UserException("schedule " + name + " must run from 0 to 1, runs from " + betas[0]
                    + " to " + betas[betas.length - 1]);
        }
        for (int k = 1; k < betas.length; k++) {
            if (!(betas[k] > betas[k - 1])) {
                throw new UserException("schedule " + name + " is not strictly increasing at step " + k
                        + " (" + betas[k - 1] + " then " + betas[k] + ")");
            }
        }
    }

    /** Number of steps K. */
    public int steps() {
        return betas.length - 1;
    }

    public double beta(int k) {
        return betas[k];
    }

    @Override
    public double[] betas() {
        return betas.clone();
    }

    public static Schedule linear(int steps) {
        requireSteps(steps);
        double[] b = new double[steps + 1];
        for (int k = 0; k <= steps; k++) {
            b[k] = (double) k / steps;
        }
        b[steps] = 1.0;
        return new Schedule("linear", b);
    }

    public static Schedule geometric(int steps, double betaMin) {
        requireSteps(steps);
        if (!(betaMin > 0 && betaMin < 1)) {
            throw new UserException("geometric schedule needs 0 < βmin < 1, got " + betaMin);
        }
        double[] b = new double[steps + 1];
        for (int k = 1; k <= steps; k++) {
            double frac = steps == 1 ? 1.0 : (double) (k - 1) / (steps - 1);
            b[k] = Math.exp(Math.log(betaMin) * (1.0 - frac));
        }
        b[steps] = 1.0;
        return new Schedule("geometric:" + betaMin, b);
    }

    public static Schedule sigmoid(int steps, double delta) {
        requireSteps(steps);
        if (!(delta > 0) || !Double.isFinite(delta)) {
            throw new UserException("sigmoid schedule needs δ > 0, got " + delta);
        }
        double lo = sigma(-delta);
        double hi = sigma(delta);
        double[] b = new double[steps + 1];
        for (int k = 0; k <= steps; k++) {
            b[k] = (sigma(delta * (2.0 * k / steps - 1.0)) - lo) / (hi - lo);
        }
        b[0] = 0.0;
        b[steps] = 1.0;
        return new Schedule("sigmoid:" + delta, b);
    }

    /** Linear segments: segment s ends at {@code ends[s]} after {@code steps[s]} equal steps. */
    public static Schedule piecewise(String name, double[] ends, int[] steps) {
        if (ends.length != steps.length || ends.length == 0) {
            throw new UserException("piecewise schedule needs one step count per segment");
        }
        long total = 0;
        for (int s = 0; s < ends.length; s++) {
            if (steps[s] < 1) {
                throw new UserException("segment " + (s + 1) + " of schedule " + name + " has " + steps[s]
                        + " steps");
            }
            total += steps[s];
        }
        requireSteps(total);
        double[] b = new double[(int) total + 1];
        int at = 1;
        double start = 0.0;
        for (int s = 0; s < ends.length; s++) {
            for (int k = 1; k <= steps[s]; k++) {
                b[at++] = k == steps[s] ? ends[s] : start + (ends[s] - start) * k / steps[s];
            }
            start = ends[s];
        }
        return new Schedule(name, b);
    }

    /**
     * Parses a schedule name (see the class comment).
     *
     * @param steps K for the named forms that take it; ignored (must be 0) for piecewise forms,
     *              whose steps are in the name
     */
    public static Schedule parse(String spec, int steps) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        String head = s.contains(":") ? s.substring(0, s.indexOf(':')) : s;
        String arg = s.contains(":") ? s.substring(s.indexOf(':') + 1) : null;
        return switch (head) {
            case "linear" -> {
                noArgument(spec, arg);
                yield linear(steps);
            }
            case "geometric" -> geometric(steps, arg == null ? 1e-3 : number(spec, arg));
            case "sigmoid" -> sigmoid(steps, arg == null ? 4.0 : number(spec, arg));
            case "salakhutdinov" -> {
                noSteps(spec, steps);
                yield salakhutdinov(arg == null ? SALAKHUTDINOV_STEPS : stepCount(spec, arg));
            }
            case "piecewise" -> {
                noSteps(spec, steps);
                yield parsePiecewise(spec, arg);
            }
            default -> throw new UserException("unknown schedule '" + spec
                    + "'; use linear, geometric[:βmin], sigmoid[:δ], piecewise:β/steps,..., or salakhutdinov[:K]");
        };
    }

    /** Whether the named form takes its step count from the name rather than from a separate K. */
    public static boolean definesOwnSteps(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        return s.startsWith("piecewise") || s.startsWith("salakhutdinov");
    }

    /** Steps of Salakhutdinov &amp; Murray's schedule as they give it. */
    private static final int SALAKHUTDINOV_STEPS = 14_500;

    /**
     * Salakhutdinov &amp; Murray's (2008) three segments, to β = 0.5, 0.9 and 1, with {@code steps} shared among them as
     * their 500, 4000 and 10000 steps are (at least one each): the same schedule function β(t) at another K.
     */
    public static Schedule salakhutdinov(int steps) {
        if (steps < 3) {
            throw new UserException("schedule salakhutdinov:K needs K of at least 3 (one step per segment), got "
                    + steps);
        }
        String name = steps == SALAKHUTDINOV_STEPS ? "salakhutdinov" : "salakhutdinov:" + steps;
        return piecewise(name, new double[] {0.5, 0.9, 1.0}, apportion(steps, new double[] {500, 4000, 10000}));
    }

    /**
     * {@code total} steps shared in proportion to {@code weights} (finite, non-negative, not all zero) by the largest
     * remainders, ties to the earlier share; a share left with none then takes one from the largest ({@code total} is at
     * least the number of shares).
     */
    public static int[] apportion(int total, double[] weights) {
        int n = weights.length;
        if (total < n) {
            throw new UserException(total + " steps cannot give each of " + n + " segments one");
        }
        double sum = 0;
        for (double w : weights) {
            if (!(w >= 0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException("segment weights must be finite and non-negative, got " + w);
            }
            sum += w;
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException("segment weights must not all be zero");
        }
        int[] out = new int[n];
        double[] remainder = new double[n];
        int given = 0;
        for (int i = 0; i < n; i++) {
            double exact = total * weights[i] / sum;
            out[i] = (int) Math.floor(exact);
            remainder[i] = exact - out[i];
            given += out[i];
        }
        for (int left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < n; i++) {
                if (remainder[i] > remainder[best]) {
                    best = i;
                }
            }
            out[best]++;
            remainder[best] = -1;
        }
        // a share that got nothing takes a step from the largest
        for (int i = 0; i < n; i++) {
            if (out[i] == 0) {
                int largest = 0;
                for (int j = 1; j < n; j++) {
                    largest = out[j] > out[largest] ? j : largest;
                }
                out[largest]--;
                out[i] = 1;
            }
        }
        return out;
    }

    private static int stepCount(String spec, String text) {
        try {
            return Decimal.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new UserException("'" + text + "' in schedule " + spec + " is not a whole number of steps");
        }
    }

    private static Schedule parsePiecewise(String spec, String arg) {
        if (arg == null || arg.isBlank()) {
            throw new UserException("piecewise schedule needs segments, e.g. piecewise:0.5/500,1/1000");
        }
        String[] parts = arg.split(",");
        double[] ends = new double[parts.length];
        int[] steps = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String[] pair = parts[i].split("/");
            if (pair.length != 2) {
                throw new UserException("segment '" + parts[i] + "' of " + spec + " is not β/steps");
            }
            ends[i] = number(spec, pair[0]);
            try {
                steps[i] = Decimal.parseInt(pair[1].trim());
            } catch (NumberFormatException e) {
                throw new UserException("segment '" + parts[i] + "' of " + spec + " has a bad step count");
            }
        }
        return piecewise("piecewise:" + arg, ends, steps);
    }

    private static double number(String spec, String text) {
        return Decimal.parse(text).orElseThrow(() -> new UserException("'" + text + "' in schedule " + spec
                + " is not a finite decimal number"));
    }

    private static void noArgument(String spec, String arg) {
        if (arg != null) {
            throw new UserException("schedule " + spec + " takes no parameter");
        }
    }

    private static void noSteps(String spec, int steps) {
        if (steps != 0) {
            throw new UserException("schedule " + spec + " sets its own number of steps; do not also give "
                    + steps);
        }
    }

    /**
     * Refuses a schedule of {@code steps} steps that cannot be held: fewer than one step, more than one
     * array holds, or more than the heap has room for (the temperatures and a copy of them).
     */
    public static void requireSteps(long steps) {
        if (steps < 1) {
            throw new UserException("a schedule needs at least 1 step, got " + steps);
        }
        if (steps > MAX_STEPS) {
            throw new UserException("a schedule of " + steps + " steps is longer than the " + MAX_STEPS
                    + " one array of temperatures can hold");
        }
        HostMemory.requireHeap(Footprint.times(steps + 1, 24), "a schedule of " + steps + " steps");
    }

    /** The most steps a schedule holds (one double per temperature in one array). */
    public static final int MAX_STEPS = Integer.MAX_VALUE - 16;

    private static double sigma(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }

    @Override
    public String toString() {
        return name + " (" + steps() + " steps)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule other && name.equals(other.name) && java.util.Arrays.equals(betas, other.betas);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + java.util.Arrays.hashCode(betas);
    }
}
