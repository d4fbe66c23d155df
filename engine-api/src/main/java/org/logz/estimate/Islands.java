package org.logz.estimate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;

import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.path.SequentialPath;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * B independent populations ("islands", Vergé, Dubarry, Del Moral &amp; Moulines 2015, without their exchange) of a
 * sequential run, each of the run's R particles, read as one estimate: {@code log Ẑ = log((1/B) Σ_b Ẑ_b)}, each Ẑ_b
 * unbiased for Z. ARM's generated batches and residual resampling leave one population without a sound standard error
 * (Lee &amp; Whiteley's estimator needs multinomial resampling and a fixed population); the islands' spread gives one, at
 * B times the particle-steps. Splitting R instead (B islands of R/B at the cost of one) was tried and dropped: on the
 * CD-25 RBM, ARM with 125 particles per island sits in its pre-asymptotic regime (log Ẑ_b spread 0.6, the bulk 0.6
 * low, the mean carried by rare lucky islands) and 8 of them gave 450.67 ± 0.09 against 451.25, where one population
 * of 1000 gives 451.12.
 *
 * <p>The standard error is the delta-method one of the mean of the Ẑ_b, scaled by {@code sqrt((B - 1)/(B - 3))}: with
 * B islands the spread has B - 1 degrees of freedom, and z-scores of an estimate against its spread follow Student's t,
 * whose variance is (B - 1)/(B - 3); scaled, they have unit variance, which is what {@code logz bench calibration}
 * checks. Hence at least 4 islands.
 */
public final class Islands {
    /** Islands of a sequential run that has no single-run standard error, unless the caller chooses. */
    public static final int DEFAULT = 4;
    /** The fewest islands whose t-distributed z-scores have a finite variance. */
    public static final int MINIMUM = 4;

    private Islands() {
    }

    /**
     * Runs {@code islands} islands of {@code settings.particles()} particles each on {@code path}, island b keyed by a
     * key derived from the settings' seed, and combines them.
     *
     * @throws UserException for fewer than {@value #MINIMUM} islands
     */
    public static SequentialResult run(ResampleMove.Settings settings, int islands, SequentialPath path,
                                       ProgressListener listener) {
        check(islands);
        List<SequentialResult> runs = new ArrayList<>(islands);
        for (int b = 0; b < islands; b++) {
            int island = b;
            ResampleMove.Settings s = settings.withSeed(Philox.derive(settings.seed(), StreamTag.ISLAND, b));
            runs.add(new ResampleMove(s).run(path, (done, total, logZ, ess) ->
                    listener.progress(island * total + done, islands * total, logZ, ess)));
        }
        return combine(runs, settings.seed());
    }

    /** Refuses fewer than {@value #MINIMUM} islands. */
    public static void check(int islands) {
        if (islands < MINIMUM) {
            throw new UserException("--islands must be at least " + MINIMUM + " (their spread's z-scores need a finite "
                    + "variance), got " + islands + "; --islands 1 runs one population without a standard error");
        }
    }

    /** The islands' runs read as one: the mean of their Ẑ, their work added, their ESS and R_n averaged. */
    static SequentialResult combine(List<SequentialResult> runs, long seed) {
        Replicates<SequentialResult> mean = Replicates.of(runs);
        int b = runs.size();
        SequentialResult first = runs.get(0);
        // the trace whose weights fell lowest, so that a collapse in any island is reported
        SequentialResult worst = runs.stream().min(Comparator.comparingDouble(r -> r.trace().stream()
                .mapToDouble(SequentialTracePoint::ess).min().orElse(Double.POSITIVE_INFINITY))).orElseThrow();
        double ess = 0;
        long particleSteps = 0;
        int resamplings = 0;
        double meanParticles = 0;
        double seconds = 0;
        long bytes = 0;
        OptionalDouble bound = OptionalDouble.empty();
        for (SequentialResult r : runs) {
            ess += r.ess() / b;
            particleSteps += r.particleSteps();
            resamplings += r.resamplings();
            meanParticles += r.meanParticles() / b;
            seconds += r.seconds();
            bytes += r.transferBytes();
            if (r.visitedBound().isPresent()) {
                bound = OptionalDouble.of(Math.max(bound.orElse(Double.NEGATIVE_INFINITY), r.visitedBound().getAsDouble()));
            }
        }
        return new SequentialResult(first.method(), first.backend(), first.path(), mean.logZ(),
                OptionalDouble.of(mean.stdErr() * Replicates.studentScale(b)), ess, first.particles(), b,
                first.logZ0(), particleSteps, resamplings,
                meanParticles, seed, seconds, worst.trace(), bytes, bound,
                runs.stream().mapToDouble(SequentialResult::reseedLag).max().orElse(0));
    }
}
