package org.logz.reproduce;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.model.toy.GaussianToy;
import org.logz.model.toy.ToyProblem;
import org.logz.path.TemperedPath;
import org.logz.problem.Reference;
import org.logz.random.Philox;

/**
 * Habeck (2017) Fig. 2: the six evidence estimators on the Gaussian toy (N(20, 10²) to N(0, 1), his kernels), M = 100
 * forward and reverse paths on schedules of K steps (his equal-divergence schedule), repeated 1000 times; the figure
 * shows each estimator's mean error and its spread against K. The scale is the fraction of the 1000 repetitions.
 */
public final class HabeckToy implements Reproduction {
    private static final int CHAINS = 100;
    private static final int PAPER_REPETITIONS = 1000;
    private static final int[] STEPS = {10, 20, 50, 100, 200};
    /** The figure's panels A-F in order, with what the paper says of each (§5, Fig. 2). */
    private static final Map<Method, String> PANELS = new LinkedHashMap<>();

    static {
        PANELS.put(Method.CUMULANT_FORWARD, "biased at small K");
        PANELS.put(Method.CUMULANT, "better than forward");
        PANELS.put(Method.JARZYNSKI_FORWARD, "worse than RAISE");
        PANELS.put(Method.JARZYNSKI_REVERSE, "better than AIS");
        PANELS.put(Method.BAR, "most accurate");
        PANELS.put(Method.HISTOGRAM, "most accurate");
    }

    @Override
    public String name() {
        return "habeck-fig2";
    }

    @Override
    public String summary() {
        return "Habeck 2017, Fig. 2: the Gaussian toy, M = 100, 1000 repetitions, the error of the cumulant, combined "
                + "cumulant, AIS, RAISE, BAR and histogram estimators against K";
    }

    @Override
    public double defaultScale() {
        return 1;
    }

    @Override
    public String fullCost() {
        return "about 3 minutes on 2 cores";
    }

    @Override
    public Outcome run(Context context) {
        GaussianToy toy = GaussianToy.habeck();
        ToyProblem problem = new ToyProblem(toy);
        int repetitions = context.scaled(PAPER_REPETITIONS, 3);
        double exact = toy.logZ1();
        // errors[method][k][repetition]; NaN where the estimator found no answer (BAR without overlap)
        Map<Method, double[][]> errors = new LinkedHashMap<>();
        PANELS.keySet().forEach(m -> errors.put(m, new double[STEPS.length][repetitions]));
        long done = 0;
        try (TemperedPath path = new TemperedPath(context.backend(), toy)) {
            for (int k = 0; k < STEPS.length; k++) {
                var schedule = problem.equalDivergenceSchedule(STEPS[k]).orElseThrow();
                for (int rep = 0; rep < repetitions; rep++) {
                    BidirectionalResult r = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(CHAINS, CHAINS,
                            schedule, 2, Philox.replicateSeed(context.seed(), rep))).run(path,
                            new AnnealedImportanceSampling.Start.Exact(), ProgressListener.NONE);
                    for (Method m : PANELS.keySet()) {
                        errors.get(m)[k][rep] = r.has(m) ? r.logZ(m) - exact : Double.NaN;
                    }
                    context.progress().progress(++done, (long) STEPS.length * repetitions, Double.NaN, Double.NaN);
                }
            }
        }
        List<Line> lines = new ArrayList<>();
        Map<Method, Summary[]> summaries = new LinkedHashMap<>();
        errors.forEach((m, e) -> {
            Summary[] s = new Summary[STEPS.length];
            for (int k = 0; k < STEPS.length; k++) {
                s[k] = Summary.of(e[k]);
            }
            summaries.put(m, s);
            lines.add(new Line(m + ": mean error ± sd at K = 10/20/50/100/200", PANELS.get(m), row(s)));
        });
        String settings = String.format(Locale.ROOT, "%d forward + %d reverse chains from exact draws, equal-divergence "
                + "schedules of K = 10, 20, 50, 100 and 200 steps, %d repetitions each", CHAINS, CHAINS, repetitions);
        return new Outcome(settings, Reference.exact(exact, "closed form, log √(2π)σ1"), lines,
                claims(summaries, repetitions));
    }

    /** Mean, standard deviation and RMSE of one estimator's errors at one K, over the repetitions that had an answer. */
    record Summary(double mean, double sd, double rmse, int failed) {
        static Summary of(double[] errors) {
            double sum = 0;
            double squares = 0;
            int n = 0;
            for (double e : errors) {
                if (!Double.isNaN(e)) {
                    sum += e;
                    squares += e * e;
                    n++;
                }
            }
            if (n < 2) {
                return new Summary(Double.NaN, Double.NaN, Double.NaN, errors.length - n);
            }
            double mean = sum / n;
            return new Summary(mean, Math.sqrt(Math.max(0, squares / n - mean * mean) * n / (n - 1)), Math.sqrt(squares / n),
                    errors.length - n);
        }

        /** Whether the mean error lies more than three standard errors from 0. */
        boolean biased(int repetitions) {
            return Math.abs(mean) > 3 * sd / Math.sqrt(repetitions - failed);
        }
    }

    private static String row(Summary[] s) {
        List<String> cells = new ArrayList<>();
        for (Summary x : s) {
            cells.add(Double.isNaN(x.mean()) ? "–" : String.format(Locale.ROOT, "%+.3f ± %.3f", x.mean(), x.sd()));
        }
        return String.join(" / ", cells);
    }

    /**
     * The paper's claims (§5): the forward cumulant estimator is biased at small K; the combined one improves on it;
     * RAISE is more accurate than AIS; BAR and the histogram estimator are the most accurate (lowest RMSE) at every K.
     */
    private static Claims claims(Map<Method, Summary[]> s, int repetitions) {
        Claims claims = new Claims();
        Summary[] forward = s.get(Method.CUMULANT_FORWARD);
        boolean biased = forward[0].biased(repetitions);
        claims.check(biased, String.format(Locale.ROOT, "the forward cumulant estimator is %sbiased at K = 10 (%+.3f)",
                biased ? "" : "not ", forward[0].mean()));
        Summary combined = s.get(Method.CUMULANT)[0];
        claims.check(combined.rmse() < forward[0].rmse(), String.format(Locale.ROOT, "the combined cumulant "
                + "estimator's RMSE at K = 10 is %.3f against the forward one's %.3f", combined.rmse(), forward[0].rmse()));
        int reverseBetter = 0;
        for (int k = 0; k < STEPS.length; k++) {
            reverseBetter += s.get(Method.JARZYNSKI_REVERSE)[k].rmse() < s.get(Method.JARZYNSKI_FORWARD)[k].rmse() ? 1 : 0;
        }
        claims.check(reverseBetter == STEPS.length, String.format(Locale.ROOT, "RAISE's RMSE is below AIS's at %d of %d "
                + "K (K = 10: %.3f against %.3f)", reverseBetter, STEPS.length, s.get(Method.JARZYNSKI_REVERSE)[0].rmse(),
                s.get(Method.JARZYNSKI_FORWARD)[0].rmse()));
        int best = 0;
        for (int k = 0; k < STEPS.length; k++) {
            double pooled = Math.max(s.get(Method.BAR)[k].rmse(), s.get(Method.HISTOGRAM)[k].rmse());
            double others = Double.POSITIVE_INFINITY;
            for (Method m : List.of(Method.CUMULANT_FORWARD, Method.CUMULANT, Method.JARZYNSKI_FORWARD,
                    Method.JARZYNSKI_REVERSE)) {
                others = Math.min(others, s.get(m)[k].rmse());
            }
            best += pooled <= others ? 1 : 0;
        }
        claims.check(best == STEPS.length, String.format(Locale.ROOT, "BAR's and the histogram estimator's RMSE is the "
                + "lowest (or tied) at %d of %d K", best, STEPS.length));
        return claims;
    }
}
