package org.logz.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.options.Family;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * log Z to a requested accuracy T: two estimators that share neither their path through the states nor their
 * failure modes run side by side, each budget doubling until both standard errors are below T/2, the two agree within
 * T and neither raises a warning that more budget could cure; then their inverse-variance weighted mean is the answer.
 * The estimators are parallel tempering (its swaps reach modes a single annealing direction misses; the SMC sampler on
 * models whose chains cannot sit at their own temperatures) and forward and reverse annealing read by BAR (Habeck
 * 2017), its reverse chains started from the data where there is data. Each round runs, under a key of its own, each
 * estimator that is not yet good enough with twice its last budget (both when each is good alone but they disagree):
 * parallel tempering's levels where its swaps were rare, else its sweeps, particles or steps. A round that would not
 * finish before the time limit (the last round's times, doubled) is not started, and a budget the machine refuses
 * (memory) ends the run too: the result then says the tolerance was not reached ({@code tolerance-not-reached}) and
 * holds what the runs gave, its error at least half the gap between the two. The first round always runs: nothing
 * predicts its time.
 */
public final class Consensus {
    /** The longest run without a time limit given: an hour. */
    public static final double DEFAULT_TIME_LIMIT = 3600;
    /** The most rounds, each doubling a budget (2^16 times the first). */
    public static final int MAX_ROUNDS = 16;

    /** The first round's budgets: parallel tempering's sweeps, the SMC sampler's particles, annealing's steps. */
    static final int PT_SWEEPS = 500;
    static final int SMC_PARTICLES = 1000;
    static final int BAR_STEPS = 1000;
    /** Chains of each direction of the annealing estimator, ladders and levels of parallel tempering: fixed. */
    static final int BAR_CHAINS = 500;
    static final int PT_LADDERS = 10;
    static final int PT_LEVELS = 32;

    private final Estimation base;
    private final double tolerance;
    private final double timeLimit;
    private final Function<String, ProgressListener> listeners;

    /**
     * @param base      the model, data, base rate, backend and seed every run shares
     * @param listeners a progress listener for each run, given its label
     */
    Consensus(Estimation base, double tolerance, double timeLimit, Function<String, ProgressListener> listeners) {
        if (!(tolerance > 0) || !Double.isFinite(tolerance)) {
            throw new UserException("--tolerance must be a positive number of nats, got " + tolerance);
        }
        if (!(timeLimit > 0) || !Double.isFinite(timeLimit)) {
            throw new UserException("--time-limit must be a positive duration, got " + timeLimit + " s");
        }
        this.base = base;
        this.tolerance = tolerance;
        this.timeLimit = timeLimit;
        this.listeners = listeners;
    }

    /** The two estimators for this model: parallel tempering where chains can sit at their own temperatures. */
    private List<Method> methods() {
        boolean tempers = base.problem.family().methods().contains(Family.PARALLEL_TEMPERING);
        return List.of(tempers ? Method.PT : Method.SMC, Method.BAR);
    }

    ConsensusResult run() {
        long started = System.nanoTime();
        List<Method> methods = methods();
        Budget[] budgets = {new Budget(methods.get(0)), new Budget(methods.get(1))};
        ConsensusResult.Reading[] last = new ConsensusResult.Reading[2];
        boolean[] due = {true, true};
        List<ConsensusResult.Reading> readings = new ArrayList<>();
        int round = 0;
        String verdict = null;
        boolean reached = false;
        while (verdict == null) {
            double elapsed = (System.nanoTime() - started) * 1e-9;
            double next = 0;
            for (int i = 0; i < 2; i++) {
                next += due[i] && last[i] != null ? 2 * last[i].seconds() : 0;
            }
            if (round == MAX_ROUNDS || (round > 0 && elapsed + next > timeLimit)) {
                verdict = String.format(Locale.ROOT, "tolerance %.3g not reached: %s before the next round (about %.0f s "
                        + "more); %s", tolerance, round == MAX_ROUNDS ? "the rounds ran out" : String.format(Locale.ROOT,
                        "the time limit of %.3g s would pass", timeLimit), next, describe(last, methods));
                break;
            }
            long key = Philox.replicateSeed(base.seed, round);
            for (int i = 0; i < 2 && verdict == null; i++) {
                if (!due[i]) {
                    continue;
                }
                try {
                    // each estimator its own key: no draw is shared between the two
                    last[i] = budgets[i].run(Philox.derive(key, StreamTag.CONSENSUS, i));
                    readings.add(last[i]);
                } catch (UserException refused) {
                    verdict = String.format(Locale.ROOT, "tolerance %.3g not reached: %s with %s could not run (%s); %s",
                            tolerance, methods.get(i), budgets[i].options(), refused.getMessage(),
                            describe(last, methods));
                }
            }
            if (verdict != null) {
                break;
            }
            round++;
            boolean good0 = good(last[0]);
            boolean good1 = good(last[1]);
            boolean agree = Math.abs(last[0].logZ() - last[1].logZ()) < tolerance;
            if (good0 && good1 && agree) {
                reached = true;
                verdict = String.format(Locale.ROOT, "%s and %s agree within %.3g with standard errors below %.3g",
                        methods.get(0), methods.get(1), tolerance, tolerance / 2);
                break;
            }
            due[0] = !good0 || (good1 && !agree);
            due[1] = !good1 || (good0 && !agree);
            for (int i = 0; i < 2; i++) {
                if (due[i]) {
                    budgets[i].grow(last[i]);
                }
            }
        }
        ConsensusResult.Reading a = last[0];
        ConsensusResult.Reading b = last[1];
        double w0 = a == null ? 0 : weight(a);
        double w1 = b == null ? 0 : weight(b);
        if (w0 + w1 == 0) {
            throw new EstimationException(verdict);
        }
        double logZ = (w0 == 0 ? 0 : w0 * a.logZ()) + (w1 == 0 ? 0 : w1 * b.logZ());
        double stdErr = Math.sqrt(1 / (w0 + w1));
        if (!reached && w0 > 0 && w1 > 0) {
            // two readings that do not agree are not averaged into more precision than their gap allows
            stdErr = Math.max(stdErr, Math.abs(a.logZ() - b.logZ()) / 2);
        }
        return new ConsensusResult(tolerance, reached, logZ / (w0 + w1), stdErr, readings, round, verdict,
                base.backendName(), base.seed, (System.nanoTime() - started) * 1e-9);
    }

    /**
     * Good enough alone: a standard error below half the tolerance and no warning that more budget could cure (a GP
     * classifier's conditioning and a latent model's noisy likelihood are the model's, not the run's).
     */
    private boolean good(ConsensusResult.Reading r) {
        return r.stdErr() < tolerance / 2 && r.warnings().stream().allMatch(w -> MODEL_WARNINGS.contains(w.code()));
    }

    /**
     * Warnings about the model, which no budget changes ({@code unverified} is what the consensus itself answers), and
     * about estimators beside the one the consensus reads.
     */
    private static final Set<String> MODEL_WARNINGS = Set.of("ill-conditioned", "noisy-likelihood",
            "unverified", "secondary-outside-bounds", "estimator-failed");

    /** One estimator's budget: doubled where its error is too large, its levels where its swaps are rare (pt). */
    private final class Budget {
        private final Method method;
        private int size;
        private int levels = PT_LEVELS;

        Budget(Method method) {
            this.method = method;
            this.size = switch (method) {
                case PT -> PT_SWEEPS;
                case SMC -> SMC_PARTICLES;
                default -> BAR_STEPS;
            };
        }

        /** Twice the budget: parallel tempering's levels when a pair of them rarely swapped, else its sweeps. */
        void grow(ConsensusResult.Reading reading) {
            if (method == Method.PT && reading.warnings().stream().anyMatch(w -> w.code().equals("poor-swaps"))) {
                levels *= 2;
            } else {
                size *= 2;
            }
        }

        String options() {
            return switch (method) {
                case PT -> "--ladders " + PT_LADDERS + " --levels " + levels + " --sweeps " + size;
                case SMC -> "--particles " + size;
                default -> "--chains " + BAR_CHAINS + " --steps " + size
                        + (reverseStart() == null ? "" : " --reverse-start " + reverseStart());
            };
        }

        /** The run under {@code seed}; its seconds are the wall time, the path's set-up (a base rate's run) included. */
        ConsensusResult.Reading run(long seed) {
            Estimation e = base.derived(method).seed(seed);
            switch (method) {
                case PT -> e.ladders(PT_LADDERS).levels(levels).sweeps(size);
                case SMC -> e.particles(size);
                default -> {
                    e.chains(BAR_CHAINS).steps(size);
                    if (reverseStart() != null) {
                        e.reverseStart(reverseStart());
                    }
                }
            }
            ProgressListener listener = listeners.apply(method + " " + options());
            long started = System.nanoTime();
            try {
                Result r = e.listener(listener).run();
                return new ConsensusResult.Reading(method, options(), r.logZ(),
                        r.standardError().orElse(Double.POSITIVE_INFINITY), (System.nanoTime() - started) * 1e-9,
                        r.warnings());
            } catch (EstimationException failed) {
                // a run that fails on its own diagnostics (work without overlap, an impossible estimate) is not good
                // enough; the next round doubles it like any other
                return new ConsensusResult.Reading(method, options(), Double.NaN, Double.POSITIVE_INFINITY,
                        (System.nanoTime() - started) * 1e-9, List.of(new Warning("run-failed", failed.getMessage())));
            } finally {
                if (listener instanceof AutoCloseable closeable) {
                    try {
                        closeable.close();
                    } catch (Exception ignored) {
                        // a progress display that fails to close changes no number
                    }
                }
            }
        }
    }

    /** The inverse variance of a reading; 0 for one without a finite estimate and error (a failed run). */
    private static double weight(ConsensusResult.Reading r) {
        return Double.isFinite(r.logZ()) && r.stdErr() > 0 && Double.isFinite(r.stdErr())
                ? 1 / (r.stdErr() * r.stdErr()) : 0;
    }

    private static String describe(ConsensusResult.Reading[] last, List<Method> methods) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < last.length; i++) {
            ConsensusResult.Reading r = last[i];
            parts.add(r == null ? methods.get(i) + " did not run" : String.format(Locale.ROOT, "%s %.4f ± %.4f%s", r.method(),
                    r.logZ(), r.stdErr(), r.warnings().isEmpty() ? "" : " (warned: " + String.join(", ",
                            r.warnings().stream().map(Warning::code).toList()) + ")"));
        }
        return "the last readings are " + String.join(" and ", parts);
    }

    /**
     * The reverse start of the annealing estimator: the model's default where it is exact, from data or the ground
     * states; a large RBM without data starts from the forward run's end states, which annealing reaches the target
     * with, rather than from chains run at β = 1 from the base.
     */
    private String reverseStart() {
        return base.problem.consensusReverseStart(base.data != null);
    }
}
