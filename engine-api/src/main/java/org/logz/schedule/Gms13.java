package org.logz.schedule;

import java.util.List;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.WeightedMoments;
import org.logz.base.UserException;
import org.logz.memory.Footprint;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The GMS13 schedule (Grosse, Maddison &amp; Salakhutdinov 2013, "optimal binned" schedule), as Kiwaki's Table 1 and
 * Fig. 1 compare it on the geometric path. Under perfect transitions the cost of a path is
 * {@code ∫ η̇ᵀ ṡ dβ} (natural parameters η, moments s), and on a bin [β_i, β_{i+1}] run with K_i linear steps it is
 * {@code J_i / K_i}, {@code J_i = (η_{i+1} - η_i)ᵀ(s_{i+1} - s_i)}, the bin's symmetrized KL divergence. For a fixed
 * total K, {@code Σ J_i/K_i} is least with {@code K_i ∝ √J_i}. On the geometric path
 * {@code η_{i+1} - η_i = (β_{i+1} - β_i)(θ_1 - θ_0)}, so only the mean of {@code d/dβ log f_β} at each knot is needed:
 * {@code J_i = Δβ_i (m_{i+1} - m_i)}, m the mean slope, which the model's own {@code levels} gives (for an RBM the
 * Rao-Blackwellized energy difference).
 *
 * <p>{@link #plan} estimates m at evenly spaced knots with one set of chains carried from knot to knot: exact base
 * draws at β = 0, then at each further knot {@code burnIn} transitions and {@code sweeps} more, each followed by a
 * reading of the mean slope. Kiwaki's setting was 10 knots, 1000 chains and 6000 updates with 1000 of burn-in
 * ({@code gms13:chains=1000,burn-in=1000,sweeps=5000}); the default, 100 chains with 20 + 50 transitions at each
 * knot, costs about 60% of a 100-chain AIS run of 1000 steps, as VAROPT's pilot costs a fifth. A J_i that
 * sampling noise makes non-positive gets √J floored at 10⁻³ of the mean, as VAROPT floors √V. The pilot runs on its own
 * key ({@link StreamTag#PILOT}, index 1); its transitions are the plan's cost.
 */
public final class Gms13 {
    /**
     * @param knots  evenly spaced knots including β = 0 and 1 (at least 2; knots - 1 bins)
     * @param chains chains of the pilot (at least 2)
     * @param burnIn transitions at each knot before its reading
     * @param sweeps transitions at each knot whose states are read (at least 1)
     */
    public record Settings(int knots, int chains, int burnIn, int sweeps) {
        public Settings {
            if (knots < 2 || knots > 10_000) {
                throw new UserException("gms13 needs 2 to 10000 knots, got " + knots);
            }
            if (chains < 2) {
                throw new UserException("the gms13 pilot needs at least 2 chains, got " + chains);
            }
            if (burnIn < 0 || sweeps < 1) {
                throw new UserException("the gms13 pilot needs burn-in ≥ 0 and sweeps ≥ 1 at each knot, got " + burnIn
                        + " and " + sweeps);
            }
        }

        /** {@code gms13[:knots=10,chains=100,burn-in=20,sweeps=50]}. */
        public static Settings parse(String spec) {
            KeyValues v = KeyValues.parse(spec, "gms13", List.of("knots", "chains", "burn-in", "sweeps"),
                    "gms13[:knots=N,chains=C,burn-in=B,sweeps=S]");
            return new Settings(v.integer("knots", 10), v.integer("chains", 100), v.integer("burn-in", 20),
                    v.integer("sweeps", 50));
        }

        String name() {
            return "gms13:knots=" + knots + ",chains=" + chains + ",burn-in=" + burnIn + ",sweeps=" + sweeps;
        }
    }

    /**
     * A schedule with the knots, their mean slopes, the bins' J_i and the steps each bin got, and the pilot's cost.
     *
     * @param pilotTransitions Markov transitions × chains the pilot ran
     */
    public record Plan(Schedule schedule, double[] knots, double[] meanSlope, double[] divergence, int[] steps,
                       long pilotTransitions) {
        public Plan {
            knots = knots.clone();
            meanSlope = meanSlope.clone();
            divergence = divergence.clone();
            steps = steps.clone();
        }

        @Override
        public double[] knots() {
            return knots.clone();
        }

        @Override
        public double[] meanSlope() {
            return meanSlope.clone();
        }

        @Override
        public double[] divergence() {
            return divergence.clone();
        }

        @Override
        public int[] steps() {
            return steps.clone();
        }
    }

    private Gms13() {
    }

    /** Runs the pilot on {@code path} and places {@code steps} steps. */
    public static Plan plan(TemperedPath path, int steps, Settings settings, long seed) {
        Schedule.requireSteps(steps);
        int n = settings.knots();
        if (steps < n - 1) {
            throw new UserException("gms13 with " + n + " knots needs at least " + (n - 1) + " steps (one per bin), got "
                    + steps);
        }
        ParticleBackend backend = path.backend();
        int m = settings.chains();
        backend.require(new Footprint(Footprint.times(m, path.bytesPerChain()), Footprint.times(m, 24), 64),
                "the gms13 pilot with " + m + " chains on " + path.description());
        long perKnot = (long) settings.burnIn() + settings.sweeps();
        path.requireSteps(perKnot * (n - 1) + 1);
        long key = Philox.derive(seed, StreamTag.PILOT, 1);
        double[] knots = Schedule.linear(n - 1).betas();
        double[] mean = new double[n];
        int step = 0;
        try (TemperedPath.Chains chains = path.chains(m); ParticleVector weights = backend.vector(m);
             ParticleVector levelBetas = backend.vector(1); ParticleVector logF = backend.vector(m);
             ParticleVector slope = backend.vector(m)) {
            backend.fill(weights, 0, m, 0.0);
            chains.sampleBase(key, step++);
            for (int i = 0; i < n; i++) {
                backend.upload(new double[] {knots[i]}, levelBetas);
                // the base draws are exact: read them once; later knots burn in, then read every sweep
                int reads = i == 0 ? 1 : settings.sweeps();
                if (i > 0) {
                    for (int b = 0; b < settings.burnIn(); b++) {
                        chains.transition(knots[i], 1, key, step++);
                    }
                }
                double sum = 0;
                for (int r = 0; r < reads; r++) {
                    if (i > 0) {
                        chains.transition(knots[i], 1, key, step++);
                    }
                    chains.levels(levelBetas, 1, logF, slope);
                    WeightedMoments w = backend.moments(weights, slope, 0, 1, m);
                    sum += w.mean();
                }
                mean[i] = sum / reads;
            }
        }
        return place(knots, mean, steps, settings, (long) (n - 1) * perKnot * path.transitionsPerStep() * m);
    }

    /**
     * The bins' {@code J_i = Δβ_i (m_{i+1} - m_i)} from the mean slopes at the knots, and {@code steps} shared among the
     * bins in proportion to √J_i (largest remainders, at least one each), linear within each bin.
     */
    static Plan place(double[] knots, double[] mean, int steps, Settings settings, long pilotTransitions) {
        int n = knots.length;
        double[] divergence = new double[n - 1];
        double[] root = new double[n - 1];
        double rootMean = 0;
        for (int i = 0; i < n - 1; i++) {
            divergence[i] = (knots[i + 1] - knots[i]) * (mean[i + 1] - mean[i]);
            root[i] = Math.sqrt(Math.max(0, divergence[i]));
            rootMean += root[i] / (n - 1);
        }
        double floor = Math.max(Varopt.FLOOR * rootMean, Double.MIN_NORMAL);
        for (int i = 0; i < n - 1; i++) {
            root[i] = Math.max(root[i], floor);
        }
        int[] bins = Schedule.apportion(steps, root);
        double[] ends = new double[n - 1];
        System.arraycopy(knots, 1, ends, 0, n - 1);
        return new Plan(Schedule.piecewise(settings.name(), ends, bins), knots, mean, divergence, bins, pilotTransitions);
    }
}
