package org.logz.options;

import java.util.List;

import org.logz.base.UserException;
import org.logz.estimate.Islands;

/**
 * The options of Resample-Move and ARM (rm, arm, arm-anticipate, arm-reseed), with their defaults: an RBM's, and a
 * GP classifier's where the ARM paper's settings differ (§4.2: one Gibbs sweep per move, residual resampling below
 * 0.9 R, i_max = 50; γ_thr stays the paper's 0.7, §3.2: "in our experiments, a value of γ_thr = 0.7 gave a good
 * trade-off", which §4.2 does not change). The SMC sampler reads the particles and the scheme too.
 */
public final class SequentialOptions {
    private SequentialOptions() {
    }

    /** A GP classifier's Gibbs sweeps per move step. */
    public static final int GPC_GIBBS_STEPS = 1;
    /**
     * A GP classifier's resampling threshold (§4.2: "residual resampling when R_eff &lt; 0.9R"). Until this version it
     * was γ_thr too: ARM on gpc:digits35 then generated all 50 batches at 39 of 365 cases.
     */
    public static final double GPC_ESS_THRESHOLD = 0.9;
    /** A GP classifier's most batches generated per iteration. */
    public static final int GPC_MAX_GENERATE = 50;

    public static final FamilyOption<Integer> PARTICLES = new FamilyOption<>("--particles", Integer.class, "R", 1000,
            "rm/arm: base number of particles; smc: particles M. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> GIBBS_STEPS = new FamilyOption<>("--gibbs-steps", Integer.class, "t", 10,
            "rm/arm: Gibbs sweeps per move step (random-walk Metropolis moves when annealing data). Default: "
                    + "${DEFAULT-VALUE} (" + GPC_GIBBS_STEPS + " for GP classification).");

    public static final FamilyOption<Double> GAMMA_THRESHOLD = new FamilyOption<>("--gamma-threshold", Double.class, "g", 0.7,
            "arm: generate while ESS/R_n < g. Default: ${DEFAULT-VALUE} (the ARM paper's, for RBMs and GP classification).");

    public static final FamilyOption<Double> ESS_THRESHOLD = new FamilyOption<>("--ess-threshold", Double.class, "e", 0.7,
            "rm: resample when ESS < e·R. Default: ${DEFAULT-VALUE} (" + GPC_ESS_THRESHOLD + " for GP classification).");

    public static final FamilyOption<Integer> MAX_GENERATE = new FamilyOption<>("--max-generate", Integer.class, "i", 3,
            "arm: most batches generated per iteration. Default: ${DEFAULT-VALUE} (" + GPC_MAX_GENERATE
                    + " for GP classification).");

    /** The unit order; null for the model's (variance with --data, else natural; a GP classifier's random:1). */
    public static final FamilyOption<String> ORDER = new FamilyOption<>("--order", String.class, "O", null,
            "rm/arm unit order: natural, variance (needs --data) or random:SEED. Default: variance with --data, else natural.");

    public static final FamilyOption<String> RESAMPLING = new FamilyOption<>("--resampling", String.class, "S", "residual",
            "rm/arm/smc: residual, systematic or multinomial. Default: ${DEFAULT-VALUE} (smc: "
                    + SmcOptions.DEFAULT_RESAMPLING + ", which gives a single-run standard error).");

    /** Independent populations; null for the method's ({@link Islands#DEFAULT} or 1). */
    public static final FamilyOption<Integer> ISLANDS = new FamilyOption<>("--islands", Integer.class, "B", null,
            "rm/arm: independent populations of --particles each (B times the work); the spread of their "
                    + "estimates is the standard error. Default: " + Islands.DEFAULT + " for the ARM variants and rm without multinomial "
                    + "resampling (one population has no sound error), else 1. At least 4, or 1.",
            b -> {
                if (b < 1 || b > SharedOptions.MAX_REPLICATES) {
                    throw new UserException("--islands must be between 1 and " + SharedOptions.MAX_REPLICATES + ", got " + b);
                }
            });

    public static final FamilyOption<Integer> RESEED_SWEEPS = new FamilyOption<>("--reseed-sweeps", Integer.class, "G", 1500,
            "arm-reseed: Gibbs sweeps of each new chain. Default: ${DEFAULT-VALUE}.");

    /** The table, in the order of the help. */
    public static final List<FamilyOption<?>> OPTIONS = List.of(PARTICLES, GIBBS_STEPS, GAMMA_THRESHOLD, ESS_THRESHOLD,
            MAX_GENERATE, ORDER, RESAMPLING, ISLANDS, RESEED_SWEEPS);
}
