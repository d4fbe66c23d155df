package org.logz.model.rbm;

import java.util.List;
import java.util.Locale;

import org.logz.backend.ParticleBackend;
import org.logz.memory.Footprint;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The base rate an RBM gets when neither its file nor a data set gives one: the visible marginals of a
 * Gibbs run of the model itself, started where the model keeps its mass and long enough to spread from there.
 *
 * <ol>
 *   <li>Hidden modes: single-unit ascent of the hidden marginal {@code log f(h)} from random starts
 *       ({@link HiddenModes}), weighted by {@code f(h)}. Trained RBMs often hold most of their mass on a
 *       hidden configuration that block Gibbs sampling from noise does not reach in thousands of sweeps
 *       (scikit-learn's 784×20 MNIST model: a mode with ~80% of the mass that no chain found); an ascent
 *       in the hidden marginal, which sums the visible layer out, finds it from a fifth of the starts.</li>
 *   <li>Gibbs: {@value #CHAINS} chains start from {@code x ~ p(x | h)} at modes drawn by weight and run
 *       {@value #SWEEPS} sweeps at β = 1 on the backend; the visible means of the second half are the
 *       marginals. Shorter runs (100 chains × 200 sweeps until the CD-25 RBM) stay at the top mode, and the base
 *       they give is too narrow: AIS from it at 10,000 steps landed 0.27 below that model's reference with an ESS of
 *       50% and no warning (DESIGN §8).</li>
 *   <li>{@code a0 = logit(m)} with m clipped to [0.01, 0.99], which keeps the base broad enough for the
 *       chains to move at small β.</li>
 * </ol>
 * Measured against exact log Z on five RBMs scikit-learn trained on MNIST and the 8×8 digits (README,
 * "Trust"): AIS at the default 1000 chains × 1000 steps from this base is within 0.016 of exact on
 * four and -0.21 on the model above, where the visible-bias base is -1.71 with an ESS of 15% and on
 * a second 784×20 model lands below a visited state (DESIGN §8).
 */
public final class ModelBaseRate {
    /** Gibbs chains of the marginal run. */
    public static final int CHAINS = 200;
    /** Sweeps of each chain; the marginals are read from the second half. */
    public static final int SWEEPS = 1000;
    /** Marginals are clipped to [CLIP, 1 - CLIP]. */
    private static final double CLIP = 0.01;
    /** Softplus evaluations the mode search may spend: about a second of one core. */
    private static final double SEARCH_BUDGET = 2e8;

    private ModelBaseRate() {
    }

    /** Random starts of the mode search: 256, fewer for large models (at least 16). */
    static int starts(Rbm rbm) {
        double perStart = 16.0 * rbm.visible() * rbm.hidden();
        return (int) Math.max(16, Math.min(256, SEARCH_BUDGET / perStart));
    }

    /** The base rate of {@code rbm}, computed on {@code backend} with keys derived from {@code seed}. */
    public static BaseRate of(ParticleBackend backend, Rbm rbm, long seed) {
        long key = Philox.derive(seed, StreamTag.MODES, 0);
        int n = rbm.visible();
        double[] on = new double[n];
        TemperedRbm walk = new TemperedRbm(rbm, BaseRate.visibleBias(rbm));
        // the Gibbs run's memory before the first ascent: a model too large for it is refused at once, not after
        // minutes of mode search (the search checks its own heap)
        String what = "the model base rate's " + CHAINS + " Gibbs chains (--base-rate visible-bias or uniform runs "
                + "none) on " + walk.description();
        backend.require(new Footprint(Footprint.times(CHAINS, walk.bytesPerChain()), Footprint.times(CHAINS, 48),
                Footprint.times(2L * CHAINS, 4L * n)), what);
        backend.requireShape(CHAINS, Math.max(n, rbm.hidden()), what);
        List<HiddenModes.Mode> modes = HiddenModes.search(rbm, starts(rbm), key);
        float[] start = startStates(rbm, modes, key);
        try (TemperedPath path = new TemperedPath(backend, walk)) {
            sample(path, start, on, key);
        }
        long samples = (long) CHAINS * (SWEEPS - SWEEPS / 2);
        float[] a0 = new float[n];
        for (int i = 0; i < n; i++) {
            double m = Math.min(1 - CLIP, Math.max(CLIP, on[i] / samples));
            a0[i] = (float) Math.log(m / (1 - m));
        }
        return BaseRate.of(a0, String.format(Locale.ROOT, "model (visible marginals of %d Gibbs chains × %d sweeps from "
                + "%d hidden mode%s)", CHAINS, SWEEPS, modes.size(), modes.size() == 1 ? "" : "s"));
    }

    /** Adds the visible states of the second half of {@value #SWEEPS} sweeps at β = 1 from {@code start} to {@code on}. */
    private static void sample(TemperedPath path, float[] start, double[] on, long key) {
        int n = on.length;
        try (TemperedPath.Chains chains = path.chains(CHAINS)) {
            chains.load(start);
            for (int sweep = 0; sweep < SWEEPS; sweep++) {
                chains.transition(1.0, 1, key, 1 + sweep);
                if (sweep >= SWEEPS / 2) {
                    float[] x = chains.states();
                    for (int k = 0; k < x.length; k++) {
                        on[k % n] += x[k];
                    }
                }
            }
        }
    }

    /** Chain c starts from {@code x ~ p(x | h)} at a mode drawn with probability ∝ f(h). */
    private static float[] startStates(Rbm rbm, List<HiddenModes.Mode> modes, long key) {
        int n = rbm.visible();
        double best = modes.get(0).logF();
        double[] cumulative = new double[modes.size()];
        double total = 0;
        for (int k = 0; k < cumulative.length; k++) {
            total += Math.exp(modes.get(k).logF() - best);
            cumulative[k] = total;
        }
        int[] picks = new int[CHAINS];
        boolean[] picked = new boolean[modes.size()];
        int[] words = new int[4];
        for (int c = 0; c < CHAINS; c++) {
            Philox.block(key, 0, c, 0, StreamTag.BASE, words);
            double u = Philox.toUniformDouble(words[0], words[1]) * total;
            int pick = 0;
            while (pick < cumulative.length - 1 && cumulative[pick] <= u) {
                pick++;
            }
            picks[c] = pick;
            picked[pick] = true;
        }
        // a + W h of each mode picked: chains share the few modes there are
        double[][] fields = HiddenModes.fields(rbm, modes, picked);
        float[] x = new float[CHAINS * n];
        for (int c = 0; c < CHAINS; c++) {
            double[] field = fields[picks[c]];
            for (int i = 0; i < n; i++) {
                if ((i & 3) == 0) {
                    Philox.block(key, 1 + (i >>> 2), c, 0, StreamTag.BASE, words);
                }
                x[c * n + i] = Philox.toUniform(words[i & 3]) < LogSpace.sigmoid(field[i]) ? 1f : 0f;
            }
        }
        return x;
    }
}
