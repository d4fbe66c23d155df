package org.logz.options;

import java.nio.file.Path;
import java.util.List;

import org.logz.base.UserException;

/** The options of tempered sampling (rts, ti, ti-rb, mbar) and parallel tempering (pt), with their defaults. */
public final class TemperingOptions {
    private TemperingOptions() {
    }

    /** Parallel chains of a tempered sampling run that does not set them. */
    public static final int DEFAULT_CHAINS = 100;

    /** Tempered sampling's own default of {@code --chains} (whose help {@link AnnealingOptions#CHAINS} gives). */
    public static final FamilyOption<Integer> CHAINS = new FamilyOption<>("--chains", Integer.class, "M", DEFAULT_CHAINS, null);

    public static final FamilyOption<Integer> LEVELS = new FamilyOption<>("--levels", Integer.class, "K", 100,
            "Tempered sampling and pt: inverse temperatures in the ladder. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<String> LADDER = new FamilyOption<>("--ladder", String.class, "S", "linear",
            "Tempered sampling and pt: spacing of the ladder (linear, geometric[:βmin], sigmoid[:δ]; pt tunes "
                    + "it from there). Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> SWEEPS = new FamilyOption<>("--sweeps", Integer.class, "N", 2000,
            "Tempered sampling and pt: iterations of the final run (one step of --sweeps-per-step transitions and "
                    + "one temperature move or round of swaps each). "
                    + "Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> ROUND_SWEEPS = new FamilyOption<>("--round-sweeps", Integer.class, "N", 50,
            "Tempered sampling: iterations of the first initial round (burn-in that tunes Ẑ, RTS §2.4); pt: of "
                    + "the first tuning round of the ladder; each later round is twice as long. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> ROUNDS = new FamilyOption<>("--rounds", Integer.class, "R", 6,
            "Tempered sampling: most initial rounds (at most 16); they stop once max|r_k - ĉ_k| < 0.1/K; pt: "
                    + "tuning rounds, after each the ladder moves to equal swap rates (0 keeps --ladder). "
                    + "Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<String> INITIAL_Z = new FamilyOption<>("--initial-z", String.class, "FROM", "ais",
            "Tempered sampling: where log Ẑ starts before the initial rounds: ais (a forward annealing pass over the "
                    + "ladder) or one (Ẑ_k = Z_0 at every level, RTS §2.4 and Fig. 1; it needs the rounds). "
                    + "Default: ${DEFAULT-VALUE}.", TemperingOptions::checkInitialZ);

    /** Whether {@code --initial-z} names the flat start; a user error for a name it does not know. */
    public static boolean flatStart(String initialZ) {
        checkInitialZ(initialZ);
        return initialZ.equals("one");
    }

    private static void checkInitialZ(String value) {
        if (!value.equals("ais") && !value.equals("one")) {
            throw new UserException("--initial-z must be ais or one, got '" + value + "'");
        }
    }

    public static final FamilyOption<Integer> BATCHES = new FamilyOption<>("--batches", Integer.class, "B", 10,
            "Tempered sampling: groups of chains (at most --chains) behind the batch-means standard "
                    + "errors. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> MBAR_SAMPLES = new FamilyOption<>("--mbar-samples", Integer.class, "N", 10_000,
            "Tempered sampling and pt: chain states kept (thinned) for MBAR; 0 skips MBAR. Default: ${DEFAULT-VALUE}.");

    public static final FamilyOption<Integer> LADDERS = new FamilyOption<>("--ladders", Integer.class, "M", 10,
            "pt: independent ladders, each with one replica per level (--ladders × --levels chains); the "
                    + "spread of their estimates is the standard error. Default: ${DEFAULT-VALUE}.");

    /** A file of prior weights; the Java API may give the weights themselves ({@link org.logz.api.Estimation#prior(double[])}). */
    public static final FamilyOption<Path> PRIOR = new FamilyOption<>("--prior", Path.class, "FILE", null,
            "Tempered sampling: prior weights r_k over the levels, one per line (normalized). Default: uniform.");

    /** The table, in the order of the help. */
    public static final List<FamilyOption<?>> OPTIONS = List.of(LEVELS, LADDER, SWEEPS, ROUND_SWEEPS, ROUNDS, INITIAL_Z,
            BATCHES,
            MBAR_SAMPLES, LADDERS, PRIOR);
}
