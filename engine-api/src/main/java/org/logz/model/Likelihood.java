package org.logz.model;

import java.util.Locale;

import org.logz.base.UserException;

/** How a {@link LatentModel}'s likelihood enters a run: exactly, or estimated without bias from N inner draws. */
public sealed interface Likelihood {
    /** The most inner draws per likelihood estimate. */
    int MAX_DRAWS = 1 << 20;

    /** The most inner terms (particles × draws × observations) one sweep of likelihood estimates may evaluate. */
    long MAX_TERMS_PER_SWEEP = 1L << 34;

    /**
     * Refuses up front a run whose every likelihood sweep would take hours: one sweep over {@code particles} evaluates
     * particles × N × observations terms, at roughly 10^8 per second and core.
     */
    static void checkCost(long particles, long draws, LatentModel model) {
        double terms = (double) particles * draws * model.observations();
        if (terms > MAX_TERMS_PER_SWEEP) {
            throw new UserException(String.format(Locale.ROOT, "%d particles × %d inner draws × %d observations "
                    + "= %.3g terms per likelihood sweep (and dozens of sweeps per run) exceed the %.3g logz runs; use "
                    + "fewer particles or inner draws", particles, draws, model.observations(), terms,
                    (double) MAX_TERMS_PER_SWEEP));
        }
    }

    /**
     * Inner terms a second, for the up-front estimate of a run's time: the stochastic-volatility bootstrap filter's
     * rate on one core of this repository's 2-core development machine (2.5·10^7 measured with another job on the
     * other core; the GLMM's importance sampling is faster). An estimate errs by the machine, never by hours.
     */
    double TERMS_PER_SECOND = 3e7;

    /**
     * Refuses up front a run of {@code sweeps} likelihood sweeps that would take longer than {@code maxSeconds}: each
     * sweep evaluates particles × N × observations terms at {@link #TERMS_PER_SECOND}.
     *
     * @param sweepsHow how {@code sweeps} was counted, for the message
     */
    static void checkRunTime(long particles, long draws, LatentModel model, double sweeps, String sweepsHow,
                             double maxSeconds) {
        double terms = (double) particles * draws * model.observations() * sweeps;
        double seconds = terms / TERMS_PER_SECOND;
        if (seconds > maxSeconds) {
            throw new UserException(String.format(Locale.ROOT, "%d particles × %d inner draws × %d observations × about "
                    + "%.0f likelihood sweeps (%s) = %.3g terms, about %.3g hours at %.0e terms a second: beyond "
                    + "--max-seconds %s; use fewer particles or inner draws (or a larger --inner auto:V), or raise "
                    + "--max-seconds to run it", particles, draws, model.observations(), sweeps, sweepsHow, terms,
                    seconds / 3600, TERMS_PER_SECOND, maxSeconds == Math.rint(maxSeconds) ? String.valueOf((long) maxSeconds)
                            : String.valueOf(maxSeconds)));
        }
    }

    /** What reports call it. */
    String describe();

    /** {@code p(y | θ)} itself, where the model has it ({@link LatentModel#hasExactLikelihood()}). */
    record Exact() implements Likelihood {
        @Override
        public String describe() {
            return "exact likelihood";
        }
    }

    /** {@code p̂_N(y | θ)} from {@code draws} inner draws by {@code proposal}. */
    record Estimated(int draws, Proposal proposal) implements Likelihood {
        /** Inner draws of an estimated likelihood when --inner is not given (methods other than aisel). */
        public static final int DEFAULT_DRAWS = 64;

        public Estimated {
            if (proposal == null) {
                throw new IllegalArgumentException("an estimated likelihood needs its proposal");
            }
            if (draws < 1 || draws > MAX_DRAWS) {
                throw new UserException("the inner draws N must be between 1 and " + MAX_DRAWS + ", got " + draws);
            }
        }

        @Override
        public String describe() {
            return "likelihood estimated from N = " + draws + " inner draws (" + proposal.cliName() + ")";
        }
    }

    /** The inner estimator: importance sampling with a Laplace or prior proposal (GLMM), a bootstrap filter (SV). */
    enum Proposal {
        LAPLACE, PRIOR, BOOTSTRAP;

        public String cliName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Proposal parse(String s) {
            for (Proposal p : values()) {
                if (p.cliName().equals(s == null ? "" : s.trim().toLowerCase(Locale.ROOT))) {
                    return p;
                }
            }
            throw new UserException("--proposal must be laplace, prior or bootstrap, got " + s);
        }

        /** The estimator a model uses when none is named. */
        public static Proposal defaultFor(LatentModel model) {
            return model.defaultProposal();
        }

        /** Refuses a proposal the model has no estimator for. */
        public void requireFits(LatentModel model) {
            if (!model.proposals().contains(this)) {
                throw new UserException("--proposal " + cliName() + " does not apply to " + model.description() + "; use "
                        + String.join(" or ", model.proposals().stream().map(Proposal::cliName).toList()));
            }
        }
    }
}
