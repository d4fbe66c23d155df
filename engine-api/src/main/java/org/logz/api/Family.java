package org.logz.api;

import java.util.Set;

import org.logz.UserException;
import org.logz.estimate.Method;

/**
 * A family of estimation methods: the methods that share one kind of run, and the options (by their
 * command-line names, which {@link Estimation} uses in its messages too) that only that kind of run reads.
 */
public enum Family {
    /** Forward or reverse annealing (AIS, RAISE). */
    ANNEALING(Set.of(Method.AIS, Method.RAISE), Set.of("--steps", "--schedule", "--reverse-start", "--work",
            "--sweeps-per-step", "--start", "--checkpoint", "--checkpoint-every", "--resume")),
    /** Forward and reverse annealing read by the nonequilibrium estimators (Habeck 2017). */
    WORK(Set.of(Method.BAR, Method.CUMULANT, Method.HISTOGRAM), Set.of("--steps", "--schedule", "--reverse-start",
            "--work", "--sweeps-per-step", "--reverse-chains", "--reverse-work", "--bootstraps", "--start",
            "--checkpoint", "--checkpoint-every", "--resume")),
    /** Rao-Blackwellized tempered sampling and the estimators on its samples (Carlson et al. 2016). */
    TEMPERED(Set.of(Method.RTS, Method.TI, Method.TI_RB, Method.MBAR), Set.of("--levels", "--ladder", "--sweeps",
            "--round-sweeps", "--rounds", "--batches", "--mbar-samples", "--prior", "--sweeps-per-step", "--start",
            "--checkpoint", "--checkpoint-every", "--resume")),
    /** Parallel tempering: independent ladders of replicas that swap between neighbouring levels. */
    PARALLEL_TEMPERING(Set.of(Method.PT), Set.of("--ladders", "--levels", "--ladder", "--sweeps", "--round-sweeps",
            "--rounds", "--mbar-samples", "--sweeps-per-step", "--start")),
    /** Resample-Move and ARM on the sequential path (Fraccaro et al.). */
    SEQUENTIAL(Set.of(Method.RM, Method.ARM, Method.ARM_ANTICIPATE, Method.ARM_RESEED), Set.of("--particles",
            "--gibbs-steps", "--gamma-threshold", "--ess-threshold", "--max-generate", "--order", "--resampling",
            "--reseed-sweeps", "--islands")),
    /** The SMC sampler on the tempered path and its power-posterior readings. */
    SMC(Set.of(Method.SMC, Method.POWER_POSTERIOR, Method.POWER_POSTERIOR_CORRECTED), Set.of("--particles",
            "--schedule", "--steps", "--ess-target", "--max-steps", "--resample-threshold", "--resampling",
            "--sweeps-per-step", "--start", "--checkpoint", "--checkpoint-every", "--resume")),
    /** AISEL: the SMC sampler over a latent-variable model's parameters with an estimated likelihood (Tran et al.). */
    AISEL(Set.of(Method.AISEL), Set.of("--particles", "--schedule", "--steps", "--ess-target", "--max-steps",
            "--resample-threshold", "--resampling", "--sweeps-per-step")),
    /** Expectation propagation, a deterministic approximation. */
    APPROXIMATION(Set.of(Method.EP), Set.of());

    private final Set<Method> methods;
    private final Set<String> options;

    Family(Set<Method> methods, Set<String> options) {
        this.methods = methods;
        this.options = options;
    }

    /** Whether runs of this family read the option of this command-line name. */
    public boolean reads(String option) {
        return options.contains(option);
    }

    /** Whether some family reads the option: one that belongs to none is read by every run. */
    static boolean familyOption(String option) {
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
                + "rts, ti, ti-rb, mbar, pt, rm, arm, arm-anticipate, arm-reseed, smc, power-posterior, "
                + "power-posterior-corrected, aisel or ep");
    }
}
