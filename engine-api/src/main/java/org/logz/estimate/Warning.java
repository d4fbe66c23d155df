package org.logz.estimate;

import java.util.Locale;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.logz.base.UserException;

/**
 * A diagnostic that says a run's own numbers cast doubt on its estimate: a stable {@code code} for
 * scripts and a sentence for people. Results derive their warnings from what they hold; the command
 * line prints one line per warning on stderr and lists them in the JSON, and {@code --strict} makes
 * any warning fail the run.
 */
public record Warning(String code, String message) {
    /** The fraction of the chains below which an importance-sampling ESS is reported as low. */
    public static final double LOW_ESS_FRACTION = 0.1;

    /**
     * Whether an ESS of {@code ess} over {@code count} particles is low: below 10% of them, or below two
     * particles where 10% would be less than one (with fewer than ten chains an ESS of 1, all weight on one
     * chain, is otherwise never low).
     */
    public static boolean lowEss(double ess, int count) {
        return ess < Math.max(LOW_ESS_FRACTION * count, Math.min(2, count / 2.0));
    }

    public Warning {
        if (code == null || code.isBlank() || message == null || message.isBlank()) {
            throw new UserException("a warning needs a code and a message");
        }
    }

    /** {@code low-ess}: the final importance weights rest on a few particles. */
    public static Warning lowEss(Method method, double ess, int particles) {
        return new Warning("low-ess", String.format(Locale.ROOT, "%s: the final ESS is %.1f of %d (below %.0f%% or two chains): the "
                + "estimate rests on a few chains and is probably too %s, and its standard error means little; anneal more "
                + "slowly (--steps), start closer to the target (an RBM's --base-rate, a GP classifier's --start ep), or "
                + "check it with --method bar", method, ess, particles, 100 * LOW_ESS_FRACTION,
                method == Method.RAISE ? "high (reverse runs overestimate)" : "low"));
    }

    /** {@code poor-overlap}: forward and reverse work barely overlap. */
    public static Warning poorOverlap(double overlap, double minimum) {
        return new Warning("poor-overlap", String.format(Locale.ROOT, "forward and reverse work overlap by %.3g (MBAR "
                + "overlap matrix; below %.2f): BAR, the histogram estimator and their standard errors are unreliable; "
                + "anneal more slowly", overlap, minimum));
    }

    /** {@code coarse-bins}: binning the density of states moved the histogram estimates off the binless one. */
    public static Warning coarseBins(double width, double shift, double error) {
        return new Warning("coarse-bins", String.format(Locale.ROOT, "bins of width %s move the histogram estimate "
                + "%+.4f from the binless one (BAR), more than twice its standard error %.4f: the histogram and "
                + "histogram-gibbs readings carry the binning; use a narrower --bin-width or 0", width, shift, error));
    }

    /** {@code gibbs-low-ess}: the histogram-gibbs chain mixed slowly, so its mean and interval rest on few draws. */
    public static Warning gibbsLowEss(double ess, int draws) {
        return new Warning("gibbs-low-ess", String.format(Locale.ROOT, "the Gibbs sampler's log Z has an effective "
                + "sample size of %.0f of %d draws: its posterior mean and interval are uncertain; raise "
                + "--gibbs-samples, or anneal more slowly (little overlap of forward and reverse work slows the sampler)",
                ess, draws));
    }

    /**
     * {@code weight-collapse}: a sequential run's weights rested on about one particle at some step, so
     * its estimate (and a Lee-Whiteley error, which then comes out near ±1) depends on a single lineage.
     */
    public static Warning weightCollapse(Method method, int unit, double ess, int particles) {
        return new Warning("weight-collapse", String.format(Locale.ROOT, "%s: at variable %d the weights rested on "
                + "an ESS of %.2f of %d particles: the estimate follows one lineage and is unreliable; use more "
                + "particles or more Gibbs steps per move", method, unit, ess, particles));
    }

    /**
     * {@code low-ess} of an SMC sampler: somewhere along the path the reweighted particles' effective size
     * fell below 10% before resampling, so the estimate rests on few of them there.
     */
    public static Warning lowStepEss(Method method, double ess, int particles, double beta) {
        return new Warning("low-ess", String.format(Locale.ROOT, "%s: at β = %.4g the reweighted particles' ESS fell to "
                + "%.1f of %d (below %.0f%% or two particles): the estimate rests on few particles there; take smaller steps (a higher "
                + "--ess-target or more --steps) or use more particles", method, beta, ess, particles,
                100 * LOW_ESS_FRACTION));
    }

    /**
     * Whether two estimates of one run, {@code a ± seA} and {@code b ± seB}, differ by more than four combined
     * standard errors and 0.05: estimators that read the same samples should agree within their noise.
     */
    public static boolean disagree(double a, double seA, double b, double seB) {
        double combined = Math.hypot(Double.isFinite(seA) ? seA : 0, Double.isFinite(seB) ? seB : 0);
        return !(Math.abs(a - b) <= Math.max(4 * combined, 0.05));
    }

    /**
     * {@code estimators-disagree}: estimators reading the same run differ beyond their standard errors, so at
     * least one is off by more than its error says (a trapezoid rule over a path whose integrand changes
     * too fast for the grid, levels the chains never reached).
     */
    public static Warning estimatorsDisagree(Method method, double logZ, String others) {
        return new Warning("estimators-disagree", String.format(Locale.ROOT, "%s %.4f disagrees with %s from the same "
                + "run beyond their standard errors: at least one of them is off by more than its error says; use more "
                + "levels or steps, or a start closer to the target", method, logZ, others));
    }

    /**
     * {@code estimators-disagree} of a forward and reverse run: AIS and RAISE differ beyond their errors, so the chains
     * lag behind the path (the two are biased low and high by its dissipation), with the β range where the mean
     * energies of the two directions part, where one was found ({@link #lagBetween}).
     */
    public static Warning directionsDisagree(double ais, double aisStdErr, double raise, double raiseStdErr, String where) {
        return directionsDisagree("forward and reverse annealing", ais, aisStdErr, raise, raiseStdErr, where + ": the "
                + "chains lag behind the path", "anneal more slowly (--steps, --sweeps-per-step), start the reverse "
                + "chains nearer the target (--reverse-start: an RBM's data, or a model's exact draws or ground states), "
                + "or check with a method that does not anneal one way (pt, rts, or --tolerance)");
    }

    /**
     * {@code estimators-disagree} of {@code logz bar}'s files: their forward and reverse Jarzynski estimates differ
     * beyond their errors, so the simulations that wrote them (not logz's) lagged behind their path.
     */
    public static Warning workDirectionsDisagree(double forward, double forwardStdErr, double reverse,
                                                 double reverseStdErr) {
        return directionsDisagree("the forward and reverse work", forward, forwardStdErr, reverse, reverseStdErr,
                "the simulations that produced the work lag behind their path", "rerun them more slowly or start the "
                        + "reverse ones nearer the target");
    }

    private static Warning directionsDisagree(String runs, double forward, double forwardStdErr, double reverse,
                                              double reverseStdErr, String cause, String remedy) {
        return new Warning("estimators-disagree", String.format(Locale.ROOT, "%s disagree: jarzynski-forward %.4f ± "
                + "%.4f, jarzynski-reverse %.4f ± %.4f; %s, and every estimate from them may share the lag's bias (BAR "
                + "and the histogram estimator least, where the work distributions overlap); %s", runs, forward,
                forwardStdErr, reverse, reverseStdErr, cause, remedy));
    }

    /** Where the chains of a forward and a reverse run lag, from their traces' mean energies ({@link Hysteresis}). */
    public static String lagBetween(List<TracePoint> forward, List<TracePoint> reverse) {
        if (!Hysteresis.comparable(forward, reverse)) {
            return "the runs measured too few mean energies (at least two per direction) to say where they lag";
        }
        return Hysteresis.parted(forward, reverse).map(r -> String.format(Locale.ROOT, "the two directions' mean energies "
                + "part between β = %.3g and %.3g (hysteresis)", r[0], r[1])).orElse("their mean energies agree within "
                + "their noise, so the gap lies in rare chains");
    }

    /**
     * {@code unverified}: any one estimator on an RBM too large to enumerate. Its standard error measures the noise of
     * its weights, populations or ladders, not the mass none of its particles reached, and on such models that mass is
     * where the error lies: on the CD-25 MNIST RBM, AIS at 10,000 steps from a narrow base landed 0.27 below the
     * reference with an ESS of 50%, ARM in four populations of 1000 particles 0.26 below with an error of 0.04, BAR from
     * forward end states 0.6 below at 1000 steps; and parallel tempering on a 784×20 model whose mass sits on one hidden
     * configuration landed 10 of its errors low. Only independent estimators that agree ({@code --tolerance}) vouch for
     * a number there.
     */
    public static Warning unverified(Method method, boolean onePath) {
        return new Warning("unverified", String.format(Locale.ROOT, "%s on an RBM too large to enumerate: %s, so its "
                + "standard error covers the noise of its own runs, not mass that none of its chains reached (on the CD-25 "
                + "MNIST RBM single runs landed 0.25-0.6 nats low with errors of 0.04-0.1); for a number to rely on, ask "
                + "for --tolerance T, which runs two independent methods until they agree", method, onePath
                ? "it follows one path to the target" : "its own diagnostics cannot see states none of its chains found"));
    }

    /**
     * {@code estimator-failed}: estimators that read the run besides the headline found no answer (BAR and the
     * histogram estimator where forward and reverse work do not overlap); the headline stands without them.
     */
    public static Warning estimatorFailed(Set<Method> failed, Method headline, String why) {
        String names = failed.stream().map(Method::toString).sorted().collect(Collectors.joining(" and "));
        return new Warning("estimator-failed", String.format(Locale.ROOT, "%s could not be computed from this run (%s); "
                + "the %s estimate stands without %s", names, why, headline, failed.size() > 1 ? "them" : "it"));
    }

    /**
     * {@code inner-capped}: {@code --inner auto:V} asked for more inner draws than a likelihood estimate takes, so the
     * run's log-likelihood variance is above V.
     */
    public static Warning innerCapped(double wanted, int cap, double target) {
        return new Warning("inner-capped", String.format(Locale.ROOT, "--inner auto:%.3g asked for N = %.3g inner draws; "
                + "the run used the most there are, %d, so the variance of its log-likelihood estimates is about %.3g, "
                + "above the target", target, wanted, cap, target * wanted / cap));
    }

    /** {@code levels-unvisited}: tempered sampling's final run never reached some levels of the ladder. */
    public static Warning levelsUnvisited(int unvisited, int levels) {
        return new Warning("levels-unvisited", String.format(Locale.ROOT, "%d of %d levels were never visited in the "
                + "final run: the estimates bridge them by interpolation and their standard errors do not see it; raise "
                + "--rounds or --round-sweeps, or use more levels near β = 0", unvisited, levels));
    }

    /**
     * {@code above-bound}: an estimate above an upper bound of log Z that the model guarantees (the evidence of
     * a classifier is a probability), within three of its standard errors of a run (beyond, the run is refused).
     */
    public static Warning aboveBound(Method method, double logZ, double bound, String why) {
        return new Warning("above-bound", String.format(Locale.ROOT, "%s: the estimate %.4f lies above %.4f, which log Z "
                + "cannot exceed (%s), within its noise: the estimate is high by at least that much", method, logZ,
                bound, why));
    }

    /**
     * {@code reseed-not-mixed}: a batch of arm-reseed's fresh particles (chains started at data examples) and the
     * current set, both meant to sample p_n, differ by {@code z} standard errors in mean log density: the chains had
     * not forgotten the data, or the set has lost modes the data reach; the estimate leans on whichever is wrong.
     */
    public static Warning reseedNotMixed(double z) {
        return new Warning("reseed-not-mixed", String.format(Locale.ROOT, "arm-reseed: a batch of reseeded particles and "
                + "the current set, both meant to sample the same distribution, differed by %.1f standard errors in mean "
                + "log density: either the chains started at data examples had not forgotten them (use more "
                + "--reseed-sweeps, default 1500) or the set has lost modes the data reach (use more --particles); the "
                + "estimate leans on whichever is wrong", z));
    }

    /** {@code few-particles}: the single-run standard error of an SMC run with fewer than {@code floor} particles. */
    public static Warning fewParticles(Method method, int particles, int floor) {
        return new Warning("few-particles", String.format(Locale.ROOT, "%s: with %d particles the single-run (Lee-Whiteley) "
                + "standard error is too small (z-scores against exact answers spread 1.5-3× wider than it says below %d "
                + "particles); use more --particles, or --replicates for an error from their spread", method, particles,
                floor));
    }

    /**
     * {@code noisy-likelihood}: the variance of an AISEL run's log likelihood estimates is so large that its
     * pseudo-marginal moves stick (Pitt et al. 2012) and Theorem 1's ESS factor exp(-τσ²) is small.
     */
    public static Warning noisyLikelihood(double variance, int draws) {
        return new Warning("noisy-likelihood", String.format(Locale.ROOT, "aisel: the log likelihood estimates from N = %d "
                + "inner draws have variance %.3g at the posterior mean; the moves stick and the estimate may be "
                + "biased: raise --inner or use --inner auto", draws, variance));
    }

    /**
     * {@code lineages-coalesced}: after its resamplings every particle of an SMC run descends from a few initial
     * ones, so the estimate rests on those few draws and the single-run (Lee-Whiteley) error says little.
     */
    public static Warning lineagesCoalesced(Method method, int lineages, int particles) {
        return new Warning("lineages-coalesced", String.format(Locale.ROOT, "%s: all %d particles descend from %d of the "
                + "initial ones: the estimate rests on those few draws and may be far off (on GP classification from the "
                + "prior, by tens of nats), and its single-run standard error is unreliable; use more particles, a higher "
                + "--ess-target, more --sweeps-per-step or a better start, and --replicates for an error",
                method, particles, lineages));
    }

    /**
     * {@code ill-conditioned}: the GP classifier's {@code K + I} is so ill-conditioned that its precision,
     * and with it every Gibbs conditional, is good to only about {@code condition · 1e-16} relative.
     */
    public static Warning illConditioned(double condition) {
        return new Warning("ill-conditioned", String.format(Locale.ROOT, "K + I has a condition number of about "
                + "%.1e, so the Gibbs conditionals are good to only about %.0e relative: the estimate may be far off; "
                + "use a smaller log σ (or a larger log ℓ makes it worse)", condition, condition * 1e-16));
    }

    /**
     * {@code exact-disagrees}: where the exact log Z is known, an estimate more than four of its standard
     * errors (and 0.05) away from it, or 0.1 when it has none; the run's own diagnostics missed it.
     */
    public static Warning exactDisagrees(double logZ, double stdErr, double exact) {
        String distance = Double.isFinite(stdErr) ? String.format(Locale.ROOT, "%.4f ± %.4f is %.1f standard errors",
                logZ, stdErr, Math.abs(logZ - exact) / stdErr)
                : String.format(Locale.ROOT, "%.4f (no standard error) is %.4f", logZ, Math.abs(logZ - exact));
        return new Warning("exact-disagrees", String.format(Locale.ROOT, "the estimate %s from the exact log Z %.4f: the "
                + "run's own diagnostics missed a failure (particles that never reached where the mass is); use more "
                + "chains or particles, or more steps", distance, exact));
    }

    /**
     * Whether {@code logZ} lies outside {@code [lower, upper]} by more than rounding (1e-9 relative): when
     * forward and reverse work are equal, all three coincide up to the last bits.
     */
    public static boolean beyondBounds(double logZ, double lower, double upper) {
        double slack = 1e-9 * (1 + Math.abs(logZ));
        return logZ < lower - slack || logZ > upper + slack;
    }

    /** {@code outside-bounds}: the headline estimate contradicts the bounds of Habeck (2017) eq. 7. */
    public static Warning outsideBounds(Method method, double logZ, double lower, double upper) {
        if (lower > upper) {
            return new Warning("outside-bounds", String.format(Locale.ROOT, "the bounds of Habeck eq. 7 cross (lower "
                    + "%.4f above upper %.4f), so the %s estimate %.4f cannot lie between them: the forward and reverse "
                    + "work do not look like the two directions of one annealing path", lower, upper, method, logZ));
        }
        return new Warning("outside-bounds", String.format(Locale.ROOT, "the %s estimate %.4f lies outside the bounds "
                + "[%.4f, %.4f] of Habeck eq. 7 (mean forward and reverse log weights): the work distributions are not "
                + "what the estimator assumes", method, logZ, lower, upper));
    }

    /**
     * {@code secondary-outside-bounds}: estimates besides the headline that a run also reports (in the JSON) lie outside
     * the bounds of Habeck eq. 7, so those estimators are wrong on this run whatever their standard errors say.
     */
    public static Warning secondaryOutsideBounds(String estimates, double lower, double upper, Method headline) {
        return new Warning("secondary-outside-bounds", String.format(Locale.ROOT, "%s of this run lie%s outside the "
                + "bounds [%.4f, %.4f] of Habeck eq. 7: do not use %s (the headline %s is checked on its own)", estimates,
                estimates.contains(",") ? "" : "s", lower, upper, estimates.contains(",") ? "them" : "it", headline));
    }

    /** {@code rts-not-converged}: the initial rounds of tempered sampling did not meet their stop rule. */
    public static Warning temperingNotConverged(int rounds, double deviation, double target) {
        return new Warning("rts-not-converged", String.format(Locale.ROOT, "the %d initial rounds of tempered sampling "
                + "ended with max|r_k - ĉ_k| = %.3g, above the stop rule's %.3g: the chains did not spread over the "
                + "ladder as the prior asks, so some levels are poorly sampled; raise --rounds or --round-sweeps", rounds,
                deviation, target));
    }

    /** {@code mbar-not-converged}: MBAR's self-consistent equations were not solved. */
    public static Warning mbarNotConverged(double residual) {
        return new Warning("mbar-not-converged", String.format(Locale.ROOT, "MBAR stopped with a self-consistency "
                + "residual of %.3g: its estimate is not the MBAR solution", residual));
    }

    /** {@code below-bound}: the estimate lies below a state's log f, within three of its standard errors. */
    public static Warning belowBound(Method method, double logZ, double bound) {
        return new Warning("below-bound", String.format(Locale.ROOT, "%s: the estimate %.4f lies %.4f below %.4f, "
                + ImpossibleEstimateException.BOUND + ", and log Z is at least that: the estimate is low "
                + "(within three of its standard errors, so it is shown); anneal more slowly or use more chains", method,
                logZ, bound - logZ, bound));
    }

    /**
     * {@code single-state}: the estimate credits all the mass to one state the run visited; the message names the
     * methods that tell its two readings apart (the hostile review's trap models: the default AIS 1.01 nats low on
     * eight equal modes, where bar and raise were right).
     */
    public static Warning singleState(Method method, double logZ, double bound) {
        return new Warning("single-state", String.format(Locale.ROOT, "%s: the estimate %.4f is within 0.01 of %.4f, "
                + "the largest unnormalized probability of one state the run visited, so it credits that state with all "
                + "of Z: either that state does hold nearly all of Z, or the chains never left it (a base distribution "
                + "too narrow, or parameters too extreme for the path); a method that does not anneal from the base "
                + "alone tells which: bar, raise from the data or exact draws, or --tolerance", method, logZ, bound));
    }
}
