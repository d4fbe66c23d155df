package org.logz.options;

import java.nio.file.Path;
import java.util.List;

import org.logz.estimate.checkpoint.Checkpointing;

/** The options that several method families read: how the model's path starts and moves, and the checkpoints. */
public final class SharedOptions {
    /** Replicates run one after another and each result is kept with its trace: beyond this, use fewer, longer runs. */
    public static final int MAX_REPLICATES = 10_000;

    private SharedOptions() {
    }

    public static final FamilyOption<String> START = new FamilyOption<>("--start", String.class, "S", null,
            "GP classification, annealing and tempered methods: where the tempered likelihood starts, "
                    + "prior (the GP prior N(0, K)) or ep (EP's Gaussian approximation q, the ARM paper's eq. 11). "
                    + "Default: ep.");

    public static final FamilyOption<String> PATH = new FamilyOption<>("--path", String.class, "P", null,
            "RBMs, annealing, tempered and SMC methods: the tempered path, full (the visible units from the base "
                    + "rate, Gibbs sweeps over visible and hidden units) or marginal (Habeck's §6.3: the hidden units "
                    + "alone from the uniform base, the visible units summed out, Metropolis sweeps of single flips; "
                    + "no --base-rate), or mas[:knots=9,chains=100,updates=300,anneal=500,sweeps=100,rate=0.05] (the "
                    + "moment-averages path of Grosse et al. 2013: knot RBMs fitted to averaged moments; ais, raise, "
                    + "bar, cumulant, histogram, histogram-gibbs). Default: full.");

    public static final FamilyOption<String> KERNEL = new FamilyOption<>("--kernel", String.class, "K", null,
            "GP classification, annealing and tempered methods: the transition, ellipse (elliptical slice sampling) or "
                    + "hmc[:leapfrog=L,step=E|auto[:E],accept=A,jitter=on|off] (Hamiltonian Monte Carlo in the base's "
                    + "whitened coordinates, ARM Fig. 2's baselines; defaults from ep l_max = 200 jittered with "
                    + "ε = 0.02, from the prior 10 steps of ε = 0.1; step=auto adapts ε to acceptance A, default 0.65). "
                    + "Default: ellipse.");

    public static final FamilyOption<Integer> SWEEPS_PER_STEP = new FamilyOption<>("--sweeps-per-step", Integer.class, "N", 1,
            "Markov transitions per annealing or tempering step, every model (Habeck's equilibration "
                    + "steps: RBM Gibbs sweeps, Ising heat-bath sweeps of L² sites, Gaussian toy kernel moves). "
                    + "Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Path> CHECKPOINT = new FamilyOption<>("--checkpoint", Path.class, "FILE", null,
            "ais, raise, bar, cumulant, histogram, rts, ti, ti-rb, mbar, smc, power-posterior, "
                    + "power-posterior-corrected: save the run's state to FILE every --checkpoint-every seconds "
                    + "(atomically; tempered sampling at the first end of its annealing pass, an initial round or a "
                    + "stretch of its final run after S seconds: a round is never cut by a save; the SMC sampler at the "
                    + "end of a step); a run killed on the way continues with --resume FILE and gives the bits of an "
                    + "uninterrupted run.");

    public static final FamilyOption<Double> CHECKPOINT_EVERY = new FamilyOption<>("--checkpoint-every", Double.class, "S",
            Checkpointing.DEFAULT_EVERY_SECONDS,
            "The runs of --checkpoint: seconds of wall time between checkpoints. Default: "
                    + (long) Checkpointing.DEFAULT_EVERY_SECONDS + ".");

    public static final FamilyOption<Path> RESUME = new FamilyOption<>("--resume", Path.class, "FILE", null,
            "The runs of --checkpoint: continue the run saved in FILE (by --checkpoint), given the same "
                    + "model and options; a checkpoint of another model, logz version or settings is refused.");

    /** The table, in the order of the help. */
    public static final List<FamilyOption<?>> OPTIONS = List.of(START, PATH, KERNEL, SWEEPS_PER_STEP, CHECKPOINT,
            CHECKPOINT_EVERY, RESUME);

    /** The tempered path's options, read by every family that runs on it (annealing, work, tempered, PT, SMC). */
    static final List<FamilyOption<?>> PATHS = List.of(SWEEPS_PER_STEP, START, PATH, KERNEL);

    /** The checkpoint options, read by the families that save their runs. */
    static final List<FamilyOption<?>> CHECKPOINTS = List.of(CHECKPOINT, CHECKPOINT_EVERY, RESUME);
}
