package org.logz.kernel;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The step sizes ε of an HMC kernel ({@link HmcSettings}), adapted on the host from each call's acceptance count, so
 * that every backend, given the same accept decisions, follows the same ε sequence (DESIGN §5, "HMC").
 *
 * <p>The rule (a multiplicative Robbins-Monro step on log ε, as in Andrieu &amp; Thoms 2008 §5 with a constant gain):
 * a call's transitions at inverse temperature β run with the ε kept for β, and afterwards
 * {@code ε ← clamp(ε · exp(GAIN · (accepted/proposed − target)))} is kept for β. One ε per β: an annealing step's
 * target β, each level of a tempering ladder (the chains of a per-particle call are grouped by their β). A β seen for
 * the first time starts from the ε of the nearest β seen (the previous annealing step's, a neighbouring level's), or
 * from the settings' initial ε. Each level's ε is frozen after {@link #FREEZE} updates.
 *
 * <p>Why this does not bias the estimators much, and when it is exact: every transition leaves p_β invariant given
 * its ε, and ε at a step depends only on the past, so annealing weights stay valid importance weights of the
 * extended space except through the dependence of ε on the particle's own past, which enters through the batch mean
 * (a 1/N share); AIS, BAR and SMC are therefore unbiased up to O(1/N) of the weight's variance, below their standard
 * errors at the chain counts logz runs. Tempered sampling's chains run with ε frozen after {@link #FREEZE} calls at a
 * level, a fixed Markov kernel from then on (its initial rounds absorb the adaptive phase). A fixed ε
 * ({@code adapt} off) is exact. Because ε follows the whole batch, adaptive runs are not split by chains
 * ({@code Problem.independentChains}).
 *
 * <p>Runs are kept apart by their seed (each replicate, direction and pilot has its own key): a seed's first call starts
 * from the initial ε, so replicates and forward/reverse runs do not share adaptation; the {@link #SEEDS} most recently
 * used seeds are kept. Thread-safe.
 */
public final class HmcStepSizes {
    /** Gain of the log-ε step per unit of acceptance error: one call moves ε by at most e^0.95 ≈ 2.6. */
    public static final double GAIN = 1.0;
    /** Updates of one β's ε after which it stays. */
    public static final int FREEZE = 50;
    /** Seeds whose adaptation is kept. */
    static final int SEEDS = 64;

    private final HmcSettings settings;
    private final Map<Long, TreeMap<Double, double[]>> bySeed = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, TreeMap<Double, double[]>> eldest) {
            return size() > SEEDS;
        }
    };

    public HmcStepSizes(HmcSettings settings) {
        this.settings = settings;
    }

    public HmcSettings settings() {
        return settings;
    }

    /** The ε transitions at β of the run keyed by {@code seed} use now. */
    public synchronized double stepSize(long seed, double beta) {
        if (!settings.adapt()) {
            return settings.stepSize();
        }
        TreeMap<Double, double[]> levels = bySeed.computeIfAbsent(seed, s -> new TreeMap<>());
        double[] at = levels.get(beta);
        if (at != null) {
            return at[0];
        }
        Map.Entry<Double, double[]> below = levels.floorEntry(beta);
        Map.Entry<Double, double[]> above = levels.ceilingEntry(beta);
        if (below == null && above == null) {
            return settings.stepSize();
        }
        if (below == null || (above != null && above.getKey() - beta < beta - below.getKey())) {
            return above.getValue()[0];
        }
        return below.getValue()[0];
    }

    /** Records that transitions at β with ε = {@code used} accepted {@code accepted} of {@code proposed} proposals. */
    public synchronized void update(long seed, double beta, double used, long accepted, long proposed) {
        if (!settings.adapt() || proposed == 0) {
            return;
        }
        double[] at = bySeed.computeIfAbsent(seed, s -> new TreeMap<>()).computeIfAbsent(beta, b -> new double[] {used, 0});
        if (at[1] >= FREEZE) {
            return;
        }
        at[0] = next(used, accepted, proposed, settings.targetAcceptance());
        at[1]++;
    }

    /** The ε of each of rows 0 .. count-1 at its inverse temperature {@code betas[r]}. */
    public synchronized double[] perRow(long seed, double[] betas, int count) {
        double[] out = new double[count];
        for (int r = 0; r < count; r++) {
            out[r] = stepSize(seed, betas[r]);
        }
        return out;
    }

    /**
     * Updates each β's ε from its rows' accept counts ({@code accepted[r]} of {@code transitions}, rows 0 .. count-1 at
     * {@code betas[r]} with ε {@code used[r]}), the counts of a β summed in row order.
     */
    public synchronized void update(long seed, double[] betas, double[] used, int[] accepted, int count, int transitions) {
        TreeMap<Double, long[]> sums = new TreeMap<>();
        TreeMap<Double, Double> eps = new TreeMap<>();
        for (int r = 0; r < count; r++) {
            long[] s = sums.computeIfAbsent(betas[r], b -> new long[2]);
            s[0] += accepted[r];
            s[1] += transitions;
            eps.putIfAbsent(betas[r], used[r]);
        }
        for (Map.Entry<Double, long[]> e : sums.entrySet()) {
            update(seed, e.getKey(), eps.get(e.getKey()), e.getValue()[0], e.getValue()[1]);
        }
    }

    /** The rule: {@code ε · exp(GAIN · (accepted/proposed − target))} within [MIN_STEP, MAX_STEP]. */
    public static double next(double epsilon, long accepted, long proposed, double target) {
        double e = epsilon * Math.exp(GAIN * ((double) accepted / proposed - target));
        return Math.min(HmcSettings.MAX_STEP, Math.max(HmcSettings.MIN_STEP, e));
    }
}
