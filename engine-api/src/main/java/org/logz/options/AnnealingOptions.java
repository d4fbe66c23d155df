package org.logz.options;

import java.nio.file.Path;
import java.util.List;

/**
 * The options of annealing (ais, raise) and of the nonequilibrium estimators on forward and reverse annealing (bar,
 * cumulant, histogram), with their defaults.
 */
public final class AnnealingOptions {
    private AnnealingOptions() {
    }

    /** Forward chains of an annealing run that does not set them. */
    public static final int DEFAULT_CHAINS = 1000;

    /**
     * The chain count: annealing's forward chains, tempered sampling's parallel chains ({@link TemperingOptions#CHAINS}
     * is that family's default); the estimators check the count (at least 2, and within the backend's memory).
     */
    public static final FamilyOption<Integer> CHAINS = new FamilyOption<>("--chains", Integer.class, "M", DEFAULT_CHAINS,
            "Independent chains: forward chains of the annealing methods (default " + DEFAULT_CHAINS + "), parallel "
                    + "chains of tempered sampling (default " + TemperingOptions.DEFAULT_CHAINS + ").");

    public static final FamilyOption<Integer> STEPS = new FamilyOption<>("--steps", Integer.class, "K", 1000,
            "Annealing steps. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<String> SCHEDULE = new FamilyOption<>("--schedule", String.class, "S", "linear",
            "Annealing schedule: linear, geometric[:βmin], sigmoid[:δ], piecewise:β/steps,..., salakhutdinov[:K], "
                    + "varopt[:pilot=K0,chains=C,max-step=d] (Kiwaki's, from a pilot run), gms13[:knots=N,chains=C,"
                    + "burn-in=B,sweeps=S] (Grosse et al.'s binned schedule, from a pilot at N knots), or (gauss-toy) "
                    + "equal-divergence; smc also adaptive. Default: ${DEFAULT-VALUE} (smc: adaptive).");

    public static final FamilyOption<String> REVERSE_START = new FamilyOption<>("--reverse-start", String.class, "START", null,
            "Reverse runs: exact (RBMs with a small layer, gauss-toy), data[:G] (RBMs: a training example of "
                    + "--data per chain, then G Gibbs sweeps at β=1; default G 100), forward[:G] (the end states of a forward "
                    + "run under its own key, resampled by weight, then G transitions; every model; default G 100), gibbs:B "
                    + "(B steps of --sweeps-per-step transitions at β=1 from the base), ground or ground:B (Ising). Default: "
                    + "exact where possible, ground for Ising, data:100 for RBMs given --data, forward:100 for GP "
                    + "classification, else gibbs:1000.");

    /** The command line's output of the forward work values (the run keeps them in its result). */
    public static final FamilyOption<Path> WORK = new FamilyOption<>("--work", Path.class, "FILE", null,
            "Write each chain's work value W = -log w, one per line: forward work (ais, bar, cumulant, "
                    + "histogram) or reverse work (raise).");

    /** The reverse chains of bar, cumulant and histogram; null for as many as the forward ones. */
    public static final FamilyOption<Integer> REVERSE_CHAINS = new FamilyOption<>("--reverse-chains", Integer.class, "M", null,
            "bar, cumulant, histogram: reverse chains. Default: --chains.");

    /** The command line's output of the reverse work values. */
    public static final FamilyOption<Path> REVERSE_WORK = new FamilyOption<>("--reverse-work", Path.class, "FILE", null,
            "bar, cumulant, histogram: write the reverse work values.");

    public static final FamilyOption<Integer> BOOTSTRAPS = new FamilyOption<>("--bootstraps", Integer.class, "B", 200,
            "histogram: bootstrap resamples behind its standard error. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Double> BIN_WIDTH = new FamilyOption<>("--bin-width", Double.class, "H", 0.0,
            "bar, cumulant, histogram, histogram-gibbs: width of the bins of the density of states over the pooled "
                    + "work, which the histogram readings of every work run use (0: one per work value, Habeck eq. 15, "
                    + "where histogram equals BAR; at least 10 bins). Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> GIBBS_SAMPLES = new FamilyOption<>("--gibbs-samples", Integer.class, "S",
            2000, "bar, cumulant, histogram, histogram-gibbs: draws of the histogram's Gibbs posterior kept after "
                    + "burn-in (the histogram-gibbs reading of every work run). Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> GIBBS_BURN_IN = new FamilyOption<>("--gibbs-burn-in", Integer.class, "B",
            200, "bar, cumulant, histogram, histogram-gibbs: Gibbs sweeps of the histogram's posterior discarded "
                    + "first. Default: ${DEFAULT-VALUE}.");

    /** The table, in the order of the help. */
    public static final List<FamilyOption<?>> OPTIONS = List.of(CHAINS, STEPS, SCHEDULE, REVERSE_START, WORK, REVERSE_CHAINS,
            REVERSE_WORK, BOOTSTRAPS, BIN_WIDTH, GIBBS_SAMPLES, GIBBS_BURN_IN);
}
