package org.logz.options;

import java.util.List;

import org.logz.base.UserException;
import org.logz.estimate.aisel.Aisel;
import org.logz.model.Likelihood;

/**
 * The options of the SMC sampler (smc, power-posterior, power-posterior-corrected, and aisel over θ), with their
 * defaults; it also reads {@link SequentialOptions#PARTICLES}, {@link SequentialOptions#RESAMPLING} and annealing's
 * schedule.
 */
public final class SmcOptions {
    private SmcOptions() {
    }

    /** The SMC sampler's resampling scheme where none is given: the one with a sound single-run standard error. */
    public static final String DEFAULT_RESAMPLING = "multinomial";

    public static final FamilyOption<Double> ESS_TARGET = new FamilyOption<>("--ess-target", Double.class, "ρ", 0.999,
            "smc, aisel, adaptive tempering: the next β keeps the conditional ESS of the incremental "
                    + "weights at ρ·M (Zhou, Johansen & Aston 2016). Default: ${DEFAULT-VALUE} (the only target without a "
                    + "refused run in `logz bench schedules`; see the README).");

    public static final FamilyOption<Integer> MAX_STEPS = new FamilyOption<>("--max-steps", Integer.class, "K", 10_000,
            "smc, adaptive tempering: the most steps before the run stops with an error. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Double> RESAMPLE_THRESHOLD = new FamilyOption<>("--resample-threshold", Double.class, "α", 0.5,
            "smc: resample when the ESS falls below α·M. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Double> MAX_SECONDS = new FamilyOption<>("--max-seconds", Double.class, "S",
            Aisel.Settings.DEFAULT_MAX_SECONDS, "aisel: refuse a run whose up-front estimate (particles × inner draws × "
                    + "observations × likelihood sweeps, at " + Likelihood.TERMS_PER_SECOND + " terms a second) is longer "
                    + "than S seconds. Default: ${DEFAULT-VALUE}.", value -> {
                if (!(value > 0)) {
                    throw new UserException("--max-seconds must be positive, got " + value);
                }
            });

    /** AISEL's own options, beside the SMC sampler's. */
    public static final List<FamilyOption<?>> AISEL_OPTIONS = List.of(MAX_SECONDS);

    /** The table, in the order of the help. */
    public static final List<FamilyOption<?>> OPTIONS = List.of(ESS_TARGET, MAX_STEPS, RESAMPLE_THRESHOLD);
}
