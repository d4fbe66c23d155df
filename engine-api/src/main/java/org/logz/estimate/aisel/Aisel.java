package org.logz.estimate.aisel;

import java.util.Arrays;
import java.util.Locale;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.kernel.Kernels;
import org.logz.kernel.LikelihoodKernel;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.resample.ResamplingScheme;

/**
 * AISEL (Tran et al., Algorithm 1; DESIGN §6): the SMC sampler over parameters θ of a {@link LatentModel} on the
 * {@link PseudoMarginal} path, each particle's likelihood estimated from N inner draws on the backend, with both
 * evidence estimates of the sampler (the product of mean incremental weights, and the power posterior of eq.
 * 10-11).
 *
 * <p>N is given, or chosen by the guideline of the paper's §3.3-3.4 ({@link Inner.Auto}): σ², the variance of
 * {@code log p̂_N} at a central θ, costs a factor {@code exp(τσ²)} in ESS (Theorem 1) while N costs linearly, and
 * σ² ∝ 1/N. Theorem 1 alone puts the optimum near σ² = 1/τ, large for gentle schedules (τ ≈ 1/T), but its
 * Assumption 4 (perfect moves) fails for pseudo-marginal moves, which stick when σ is above about 1 (Pitt et al.
 * 2012; Doucet et al. 2015), so the default target is σ² = 1. The central θ is the posterior mean of a pilot
 * AISEL run ({@value #PILOT_PARTICLES} particles, N = {@value #PILOT_DRAWS}, ρ = 0.5); σ² is measured there from
 * {@value #REPEATS} independent estimates, N is multiplied by 4 until σ² ≤ 4 (where σ² ∝ 1/N holds), and
 * {@code N = ⌈N_0 σ²(N_0) / σ²*⌉}. The pilot's moves and inner draws are counted in the result.
 */
public final class Aisel {
    /** Particles of the pilot run that finds the central θ for {@link Inner.Auto}. */
    public static final int PILOT_PARTICLES = 100;
    /** Inner draws of the pilot run and of the first variance measurement. */
    public static final int PILOT_DRAWS = 16;
    /** The most inner draws at which the pilot measures σ² before giving up on the model. */
    static final int MAX_PILOT_DRAWS = 1 << 14;
    /** Independent likelihood estimates behind each measurement of σ². */
    public static final int REPEATS = 100;
    /** σ² above which N is raised before the 1/N extrapolation. */
    static final double EXTRAPOLATION_LIMIT = 4;

    /** How many inner draws each likelihood estimate makes. */
    public sealed interface Inner {
        /** N draws. */
        record Fixed(int draws) implements Inner {
        }

        /** N chosen so that σ² of log p̂_N at a central θ is {@code targetVariance}. */
        record Auto(double targetVariance) implements Inner {
            public Auto {
                if (!(targetVariance > 0 && targetVariance <= 100)) {
                    throw new UserException("--inner auto:V needs V in (0, 100], got " + targetVariance);
                }
            }
        }
    }

    /**
     * @param smc          the SMC sampler's settings (particles M, schedule or adaptive tempering, resampling, seed,
     *                     headline estimate)
     * @param inner        N or the rule that chooses it
     * @param proposal     the inner estimator
     * @param movesPerStep pseudo-marginal moves per step
     * @param maxSeconds   the longest run the up-front estimate may promise ({@link Likelihood#checkRunTime})
     */
    public record Settings(SmcSampler.Settings smc, Inner inner, Likelihood.Proposal proposal, int movesPerStep,
                           double maxSeconds) {
        /** The longest run by default: an hour. */
        public static final double DEFAULT_MAX_SECONDS = 3600;

        public Settings {
            if (movesPerStep < 1) {
                throw new UserException("AISEL needs at least one move per step, got " + movesPerStep);
            }
            if (!(maxSeconds > 0)) {
                throw new UserException("--max-seconds must be positive, got " + maxSeconds);
            }
        }

        /** With the default {@link #DEFAULT_MAX_SECONDS}. */
        public Settings(SmcSampler.Settings smc, Inner inner, Likelihood.Proposal proposal, int movesPerStep) {
            this(smc, inner, proposal, movesPerStep, DEFAULT_MAX_SECONDS);
        }
    }

    /**
     * Adaptive steps at ρ per step of the pilot at ρ = 0.5, for the up-front cost: twice {@code √(ρ/(1-ρ))}, the ratio
     * of the steps small-step theory gives (each step's χ² divergence is 1/ρ - 1 and Δβ ∝ its root); the factor 2 is
     * what sv:sim200 and glmm:sim20 took beyond it at ρ = 0.999 (166 and 250 steps against pilots of 3 and 4).
     */
    static double adaptiveStepsPerPilotStep(double essTarget) {
        return 2 * Math.sqrt(essTarget / (1 - essTarget));
    }

    private final Settings settings;

    public Aisel(Settings settings) {
        this.settings = settings;
    }

    /** Runs AISEL on {@code model} with the backend's likelihood kernel. */
    public AiselResult run(ParticleBackend backend, LatentModel model, ProgressListener listener) {
        settings.proposal().requireFits(model);
        long seed = settings.smc().seed();
        InnerChoice choice = null;
        int draws;
        if (settings.inner() instanceof Inner.Auto auto) {
            choice = choose(backend, model, auto.targetVariance(), Philox.derive(seed, StreamTag.INNER_PILOT, 0));
            draws = choice.draws();
        } else {
            draws = ((Inner.Fixed) settings.inner()).draws();
        }
        checkRunTime(model, draws, choice);
        Likelihood.Estimated likelihood = new Likelihood.Estimated(draws, settings.proposal());
        SmcResult smc;
        try (TemperedPath path = new TemperedPath(backend, new PseudoMarginal(model, likelihood), settings.movesPerStep())) {
            smc = new SmcSampler(settings.smc()).run(path, listener, true);
        }
        double[] center = Arrays.copyOf(smc.posteriorMean(), model.parameters());
        double variance = variance(backend, model, likelihood, center, Philox.derive(seed, StreamTag.INNER_PILOT, 1));
        return new AiselResult(smc, likelihood, variance, center, choice);
    }

    /**
     * Refuses a run whose likelihood sweeps (the base draws' and one per move) would take longer than
     * {@link Settings#maxSeconds}: a schedule's steps, or adaptive tempering's as {@link #adaptiveStepsPerPilotStep}
     * times the pilot's (one pilot step where N is given and no pilot ran, so the estimate errs low).
     */
    private void checkRunTime(LatentModel model, int draws, InnerChoice choice) {
        double steps;
        String how;
        if (settings.smc().steps() instanceof SmcSampler.Steps.Fixed fixed) {
            steps = fixed.schedule().steps();
            how = "the schedule's steps";
        } else {
            var adaptive = (SmcSampler.Steps.Adaptive) settings.smc().steps();
            double rho = adaptive.essTarget();
            int pilotSteps = choice == null ? 1 : Math.max(1, choice.pilotSteps());
            steps = Math.min(adaptive.maxSteps(), Math.ceil(pilotSteps * adaptiveStepsPerPilotStep(rho)));
            how = String.format(Locale.ROOT, "adaptive at ρ = %s, %s", rho, choice == null ? "at least"
                    : "from the pilot's " + pilotSteps + " at ρ = 0.5");
        }
        Likelihood.checkRunTime(settings.smc().particles(), draws, model, 1 + steps * settings.movesPerStep(),
                String.format(Locale.ROOT, "%.0f steps (%s) × %d moves, and the base", steps, how,
                        settings.movesPerStep()), settings.maxSeconds());
    }

    /** The pilot, the measurements and the rule of the class comment. */
    private InnerChoice choose(ParticleBackend backend, LatentModel model, double target, long seed) {
        Likelihood.Estimated pilotLikelihood = new Likelihood.Estimated(PILOT_DRAWS, settings.proposal());
        SmcResult pilot;
        SmcSampler.Settings pilotSettings = new SmcSampler.Settings(PILOT_PARTICLES, new SmcSampler.Steps.Adaptive(0.5,
                SmcSampler.MAX_STEPS), 0.5, ResamplingScheme.MULTINOMIAL, seed, Method.SMC);
        try (TemperedPath path = new TemperedPath(backend, new PseudoMarginal(model, pilotLikelihood),
                settings.movesPerStep())) {
            pilot = new SmcSampler(pilotSettings).run(path, ProgressListener.NONE, true);
        }
        double[] center = Arrays.copyOf(pilot.posteriorMean(), model.parameters());
        long innerDraws = (PILOT_PARTICLES + pilot.transitions()) * (long) PILOT_DRAWS;
        int measured = PILOT_DRAWS;
        double variance;
        int round = 2;
        while (true) {
            variance = variance(backend, model, new Likelihood.Estimated(measured, settings.proposal()), center,
                    Philox.derive(seed, StreamTag.INNER_PILOT, round++));
            innerDraws += (long) REPEATS * measured;
            if (variance <= EXTRAPOLATION_LIMIT || measured * 4 > MAX_PILOT_DRAWS) {
                break;
            }
            measured *= 4;
        }
        if (!(variance <= EXTRAPOLATION_LIMIT)) {
            throw new UserException(String.format(Locale.ROOT, "--inner auto: the variance of log p̂ at the pilot's "
                    + "central θ is still %.3g with %d inner draws (it should fall like 1/N): the inner estimator does not "
                    + "settle on this model and data; give --inner N to run anyway", variance, measured));
        }
        double wanted = Math.max(1, Math.ceil(measured * variance / target));
        int chosen = (int) Math.min(Likelihood.MAX_DRAWS, wanted);
        return new InnerChoice(chosen, wanted, target, measured, variance, center, pilot.transitions() + PILOT_PARTICLES,
                pilot.stepCount(), innerDraws);
    }

    /**
     * The variance of {@code log p̂_N(y | θ)} over {@value #REPEATS} independent estimates at θ (particles 0..R-1 of
     * the stream {@code seed}); infinite when an estimate is not finite.
     */
    public static double variance(ParticleBackend backend, LatentModel model, Likelihood.Estimated likelihood,
                                  double[] theta, long seed) {
        int d = model.parameters();
        float[] rows = new float[REPEATS * d];
        for (int r = 0; r < REPEATS; r++) {
            for (int k = 0; k < d; k++) {
                rows[r * d + k] = (float) theta[k];
            }
        }
        double[] values;
        try (LikelihoodKernel kernel = Kernels.likelihood(backend, model);
             ParticleMatrix m = backend.matrix(REPEATS, d); ParticleVector out = backend.vector(REPEATS)) {
            backend.upload(rows, REPEATS, m);
            kernel.estimate(m, REPEATS, likelihood, seed, 0, out);
            values = backend.download(out, REPEATS);
        }
        double mean = 0;
        for (double v : values) {
            if (!Double.isFinite(v)) {
                return Double.POSITIVE_INFINITY;
            }
            mean += v / REPEATS;
        }
        double sum = 0;
        for (double v : values) {
            sum += (v - mean) * (v - mean);
        }
        return sum / (REPEATS - 1);
    }
}
