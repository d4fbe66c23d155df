package org.logz.schedule;

import java.util.Locale;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightedMoments;
import org.logz.base.UserException;
import org.logz.memory.Footprint;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * VAROPT annealing schedules (Kiwaki 2015): under perfect transitions the variance of AIS's log weight is
 * {@code Σ_k Var_{β_k}(log f_{β_{k+1}} - log f_{β_k}) ≈ Σ_k Δβ_k² V(β_k)} with {@code V(β) = Var_β(d/dβ log f_β)},
 * and the schedule that minimizes it for K steps (the Euler-Lagrange equation of his eq. 9) keeps
 * {@code Δβ √V(β)} constant: equal steps of thermodynamic length {@code ∫ √V dβ}.
 *
 * <p>{@link #plan} estimates V by a cheap pilot: AIS on a linear schedule of {@code pilotSteps} steps with
 * {@code pilotChains} chains, reading the weighted variance of the slope at every β with the on-the-fly
 * weights (Kiwaki's Algorithm 2, first pass); smooths it with a Gaussian kernel of two pilot steps (his
 * "convolutional smoothing"); and places the K steps at equal increments of the cumulative length,
 * {@code √V} floored at 10⁻³ of its mean so that a region of zero variance still advances. The decelerated
 * variant (his Algorithm 3) caps every step at {@code maxStep} and stretches the uncapped ones to fill the
 * path. The pilot runs on its own key ({@link StreamTag#PILOT}); its transitions are the plan's cost.
 */
public final class Varopt {
    /** Default pilot: 200 linear steps of 100 chains. */
    public static final int PILOT_STEPS = 200;
    public static final int PILOT_CHAINS = 100;
    /** Bandwidth of the smoothing kernel, in pilot steps. */
    static final double BANDWIDTH = 2;
    /** √V is floored at this fraction of its mean. */
    static final double FLOOR = 1e-3;

    /**
     * @param pilotSteps  steps of the pilot's linear schedule (at least 2)
     * @param pilotChains chains of the pilot (at least 2)
     * @param maxStep     the decelerated variant's cap on Δβ, in (0, 1]; 1 for plain VAROPT
     */
    public record Settings(int pilotSteps, int pilotChains, double maxStep) {
        public Settings {
            if (pilotSteps < 2 || pilotSteps > 1_000_000) {
                throw new UserException("the VAROPT pilot needs 2 to 1000000 steps, got " + pilotSteps);
            }
            if (pilotChains < 2) {
                throw new UserException("the VAROPT pilot needs at least 2 chains, got " + pilotChains);
            }
            if (!(maxStep > 0 && maxStep <= 1)) {
                throw new UserException("the VAROPT maximum step must lie in (0, 1], got " + maxStep);
            }
        }

        /**
         * {@code varopt[:pilot=K0,chains=C,max-step=d]}: the text after {@code varopt}, empty or starting with
         * a colon.
         */
        public static Settings parse(String spec) {
            KeyValues v = KeyValues.parse(spec, "varopt", java.util.List.of("pilot", "chains", "max-step"),
                    "varopt[:pilot=K0,chains=C,max-step=d]");
            return new Settings(v.integer("pilot", PILOT_STEPS), v.integer("chains", PILOT_CHAINS), v.number("max-step", 1));
        }

        /** Every setting, so that the label reproduces the run. */
        String name() {
            String base = "varopt:pilot=" + pilotSteps + ",chains=" + pilotChains;
            return maxStep < 1 ? base + ",max-step=" + maxStep : base;
        }
    }

    /**
     * A schedule, the pilot's estimate of V on its linear grid (raw and smoothed) and the pilot's cost.
     *
     * @param pilotTransitions Markov transitions × chains the pilot ran
     */
    public record Plan(Schedule schedule, double[] pilotBetas, double[] variance, double[] smoothed,
                       long pilotTransitions) {
        public Plan {
            pilotBetas = pilotBetas.clone();
            variance = variance.clone();
            smoothed = smoothed.clone();
        }

        @Override
        public double[] pilotBetas() {
            return pilotBetas.clone();
        }

        @Override
        public double[] variance() {
            return variance.clone();
        }

        @Override
        public double[] smoothed() {
            return smoothed.clone();
        }
    }

    private Varopt() {
    }

    /** What the pilot allocates: its chains and four vectors per chain. */
    public static Footprint footprint(TemperedPath path, Settings settings) {
        long m = settings.pilotChains();
        return new Footprint(Footprint.times(m, path.bytesPerChain()), Footprint.times(m, 32), 24L * settings.pilotSteps());
    }

    /** Runs the pilot on {@code path} and places {@code steps} steps. */
    public static Plan plan(TemperedPath path, int steps, Settings settings, long seed) {
        Schedule.requireSteps(steps);
        ParticleBackend backend = path.backend();
        backend.require(footprint(path, settings), "the VAROPT pilot with " + settings.pilotChains() + " chains on "
                + path.description());
        int k0 = settings.pilotSteps();
        int m = settings.pilotChains();
        path.requireSteps(k0 + 1L);
        long key = Philox.derive(seed, StreamTag.PILOT, 0);
        double[] grid = Schedule.linear(k0).betas();
        double[] variance = new double[k0 + 1];
        try (TemperedPath.Chains chains = path.chains(m); ParticleVector logW = backend.vector(m);
             ParticleVector levelBetas = backend.vector(1); ParticleVector logF = backend.vector(m);
             ParticleVector slope = backend.vector(m)) {
            chains.sampleBase(key, 0);
            backend.fill(logW, 0, m, 0.0);
            for (int k = 0; k <= k0; k++) {
                if (k > 0) {
                    chains.anneal(grid[k - 1], grid[k], logW, false, key, k);
                }
                backend.upload(new double[] {grid[k]}, levelBetas);
                chains.levels(levelBetas, 1, logF, slope);
                WeightedMoments v = backend.moments(logW, slope, 0, 1, m);
                variance[k] = v.variance();
                if (k > 0 && k < k0) {
                    chains.transition(grid[k], 1, key, k);
                }
            }
        }
        double[] smoothed = smooth(variance);
        Schedule schedule = place(grid, smoothed, steps, settings);
        return new Plan(schedule, grid, variance, smoothed, (long) (k0 - 1) * path.transitionsPerStep() * m);
    }

    /** Gaussian-kernel smoothing of V over the pilot grid; values that are not finite are left out. */
    static double[] smooth(double[] v) {
        int n = v.length;
        double[] out = new double[n];
        int reach = (int) Math.ceil(4 * BANDWIDTH);
        for (int k = 0; k < n; k++) {
            double sum = 0;
            double weight = 0;
            for (int j = Math.max(0, k - reach); j <= Math.min(n - 1, k + reach); j++) {
                if (Double.isFinite(v[j]) && v[j] >= 0) {
                    double w = Math.exp(-0.5 * (k - j) * (k - j) / (BANDWIDTH * BANDWIDTH));
                    sum += w * v[j];
                    weight += w;
                }
            }
            out[k] = weight > 0 ? sum / weight : 0;
        }
        return out;
    }

    /** Equal increments of {@code ∫ √V dβ} (trapezoid on the grid, √V floored), then the optional cap. */
    static Schedule place(double[] grid, double[] variance, int steps, Settings settings) {
        int n = grid.length;
        double[] root = new double[n];
        double mean = 0;
        for (int k = 0; k < n; k++) {
            root[k] = Math.sqrt(variance[k]);
            mean += root[k] / n;
        }
        double floor = Math.max(FLOOR * mean, Double.MIN_NORMAL);
        double[] length = new double[n];
        for (int k = 1; k < n; k++) {
            length[k] = length[k - 1] + 0.5 * (grid[k] - grid[k - 1]) * (root[k - 1] + root[k] + 2 * floor);
        }
        double[] betas = new double[steps + 1];
        int segment = 0;
        for (int i = 1; i < steps; i++) {
            double target = length[n - 1] * i / steps;
            while (segment < n - 2 && length[segment + 1] < target) {
                segment++;
            }
            double within = (target - length[segment]) / (length[segment + 1] - length[segment]);
            betas[i] = Math.max(Math.nextUp(betas[i - 1]),
                    grid[segment] + Math.min(1, Math.max(0, within)) * (grid[segment + 1] - grid[segment]));
        }
        betas[steps] = 1;
        if (settings.maxStep() < 1) {
            betas = decelerate(betas, settings.maxStep());
        }
        return new Schedule(settings.name(), betas);
    }

    /**
     * Kiwaki's Algorithm 3: steps larger than {@code cap} are clipped to it and the others stretched to fill
     * [0, 1], repeated until none exceeds the cap.
     */
    static double[] decelerate(double[] betas, double cap) {
        int k = betas.length - 1;
        if (cap * k < 1) {
            throw new UserException(String.format(Locale.ROOT, "a maximum step of %s cannot cover [0, 1] in %d steps; "
                    + "use at least %d steps or a larger max-step", cap, k, (int) Math.ceil(1 / cap)));
        }
        double[] step = new double[k];
        for (int i = 0; i < k; i++) {
            step[i] = betas[i + 1] - betas[i];
        }
        boolean[] clipped = new boolean[k];
        for (int round = 0; round < k; round++) {
            boolean changed = false;
            for (int i = 0; i < k; i++) {
                if (!clipped[i] && step[i] >= cap) {
                    clipped[i] = true;
                    step[i] = cap;
                    changed = true;
                }
            }
            double free = 0;
            int clippedCount = 0;
            for (int i = 0; i < k; i++) {
                if (clipped[i]) {
                    clippedCount++;
                } else {
                    free += step[i];
                }
            }
            double remaining = 1 - clippedCount * cap;
            if (free > 0) {
                for (int i = 0; i < k; i++) {
                    if (!clipped[i]) {
                        step[i] *= remaining / free;
                    }
                }
            }
            if (!changed) {
                break;
            }
        }
        double[] out = new double[k + 1];
        for (int i = 0; i < k; i++) {
            out[i + 1] = Math.max(Math.nextUp(out[i]), out[i] + step[i]);
        }
        out[k] = 1;
        return out;
    }
}
