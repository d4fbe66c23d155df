package org.logz.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.tempered.TemperedSampling;

/**
 * A family of estimation methods: the methods that share one kind of run, and the options that only that kind of run
 * reads, from the families' tables ({@link SharedOptions}, {@link AnnealingOptions}, {@link TemperingOptions},
 * {@link SequentialOptions}, {@link SmcOptions}) by their command-line names, which {@link org.logz.api.Estimation} uses in its
 * messages too. {@code --chains} is in no family's list: the families that take it say so through {@link #chains()},
 * and the others refuse it with their own reasons.
 */
public enum Family {
    /** Forward or reverse annealing (AIS, RAISE). */
    ANNEALING(Set.of(Method.AIS, Method.RAISE), options(List.of(AnnealingOptions.STEPS, AnnealingOptions.SCHEDULE,
            AnnealingOptions.REVERSE_START, AnnealingOptions.WORK), SharedOptions.PATHS, SharedOptions.CHECKPOINTS)),
    /** Forward and reverse annealing read by the nonequilibrium estimators (Habeck 2017). */
    WORK(Set.of(Method.BAR, Method.CUMULANT, Method.HISTOGRAM, Method.HISTOGRAM_GIBBS), options(List.of(
            AnnealingOptions.STEPS, AnnealingOptions.SCHEDULE, AnnealingOptions.REVERSE_START, AnnealingOptions.WORK,
            AnnealingOptions.REVERSE_CHAINS, AnnealingOptions.REVERSE_WORK, AnnealingOptions.BOOTSTRAPS,
            AnnealingOptions.BIN_WIDTH, AnnealingOptions.GIBBS_SAMPLES, AnnealingOptions.GIBBS_BURN_IN),
            SharedOptions.PATHS, SharedOptions.CHECKPOINTS)),
    /** Rao-Blackwellized tempered sampling and the estimators on its samples (Carlson et al. 2016). */
    TEMPERED(Set.copyOf(TemperedSampling.Settings.ESTIMATORS), options(List.of(TemperingOptions.LEVELS,
            TemperingOptions.LADDER, TemperingOptions.SWEEPS, TemperingOptions.ROUND_SWEEPS, TemperingOptions.ROUNDS,
            TemperingOptions.INITIAL_Z, TemperingOptions.BATCHES, TemperingOptions.MBAR_SAMPLES, TemperingOptions.PRIOR),
            SharedOptions.PATHS, SharedOptions.CHECKPOINTS)),
    /** Parallel tempering: independent ladders of replicas that swap between neighbouring levels. */
    PARALLEL_TEMPERING(Set.of(Method.PT), options(List.of(TemperingOptions.LADDERS, TemperingOptions.LEVELS,
            TemperingOptions.LADDER, TemperingOptions.SWEEPS, TemperingOptions.ROUND_SWEEPS, TemperingOptions.ROUNDS,
            TemperingOptions.MBAR_SAMPLES), SharedOptions.PATHS)),
    /** Resample-Move and ARM on the sequential path (Fraccaro et al.). */
    SEQUENTIAL(Set.of(Method.RM, Method.ARM, Method.ARM_ANTICIPATE, Method.ARM_RESEED),
            options(SequentialOptions.OPTIONS)),
    /** The SMC sampler on the tempered path and its power-posterior readings. */
    SMC(Set.of(Method.SMC, Method.POWER_POSTERIOR, Method.POWER_POSTERIOR_CORRECTED), options(List.of(
            SequentialOptions.PARTICLES, AnnealingOptions.SCHEDULE, AnnealingOptions.STEPS, SequentialOptions.RESAMPLING),
            SharedOptions.PATHS, SmcOptions.OPTIONS, SharedOptions.CHECKPOINTS)),
    /** AISEL: the SMC sampler over a latent-variable model's parameters with an estimated likelihood (Tran et al.). */
    AISEL(Set.of(Method.AISEL), options(List.of(SequentialOptions.PARTICLES, AnnealingOptions.SCHEDULE,
            AnnealingOptions.STEPS, SequentialOptions.RESAMPLING, SharedOptions.SWEEPS_PER_STEP), SmcOptions.OPTIONS,
            SmcOptions.AISEL_OPTIONS)),
    /** Expectation propagation, a deterministic approximation. */
    APPROXIMATION(Set.of(Method.EP, Method.EP_CORRECTED), Set.of());

    /** Options of a method's family that the method itself does not read. */
    private static final Map<Method, Set<String>> NOT_FOR = Map.of(
            Method.AIS, options(List.of(AnnealingOptions.REVERSE_START)),
            Method.RM, options(List.of(SequentialOptions.GAMMA_THRESHOLD, SequentialOptions.MAX_GENERATE,
                    SequentialOptions.RESEED_SWEEPS)),
            Method.ARM, options(List.of(SequentialOptions.ESS_THRESHOLD, SequentialOptions.RESEED_SWEEPS)),
            Method.ARM_ANTICIPATE, options(List.of(SequentialOptions.ESS_THRESHOLD, SequentialOptions.RESEED_SWEEPS)),
            Method.ARM_RESEED, options(List.of(SequentialOptions.ESS_THRESHOLD)));

    private final Set<Method> methods;
    private final Set<String> options;

    Family(Set<Method> methods, Set<String> options) {
        this.methods = methods;
        this.options = options;
    }

    /** The command-line names of the options of these tables. */
    @SafeVarargs
    private static Set<String> options(List<? extends FamilyOption<?>>... tables) {
        List<String> names = new ArrayList<>();
        for (List<? extends FamilyOption<?>> table : tables) {
            for (FamilyOption<?> option : table) {
                names.add(option.name());
            }
        }
        return Set.copyOf(names);
    }

    /** Whether runs of this family read the option of this command-line name. */
    /** Whether this family runs {@code method}. */
    public boolean runs(Method method) {
        return methods.contains(method);
    }

    public boolean reads(String option) {
        return options.contains(option);
    }

    /** The options of this family that {@code method} does not read (ais has no reverse start, rm no γ threshold). */
    public static Set<String> notFor(Method method) {
        return NOT_FOR.getOrDefault(method, Set.of());
    }

    /** The family's chain count with its default, or null where its runs take no {@code --chains}. */
    public FamilyOption<Integer> chains() {
        return switch (this) {
            case ANNEALING, WORK -> AnnealingOptions.CHAINS;
            case TEMPERED -> TemperingOptions.CHAINS;
            default -> null;
        };
    }

    /** Whether some family reads the option: one that belongs to none is read by every run. */
    public static boolean familyOption(String option) {
        for (Family f : values()) {
            if (f.options.contains(option)) {
                return true;
            }
        }
        return false;
    }

    /** The family that runs {@code method}. */
    public static Family of(Method method) {
        for (Family f : values()) {
            if (f.methods.contains(method)) {
                return f;
            }
        }
        throw new IllegalStateException("no family runs " + method);
    }

    /** The method of this command-line name, if some family runs it; else a one-line error listing them. */
    public static Method method(String name) {
        for (Family f : values()) {
            for (Method m : f.methods) {
                if (m.toString().equals(name)) {
                    return m;
                }
            }
        }
        throw new UserException("unknown --method '" + name + "'; use ais, raise, bar, cumulant, histogram, "
                + "histogram-gibbs, rts, ts, ti, ti-riemann, ti-friel, ti-rb, mbar, pt, rm, arm, arm-anticipate, "
                + "arm-reseed, smc, power-posterior, power-posterior-corrected, aisel, ep or ep-corrected");
    }
}
