package org.logz.comparison;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Method;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.path.TemperedPath;
import org.logz.problem.Reference;
import org.logz.random.Philox;
import org.logz.schedule.Schedule;

/**
 * The RTS paper's Figure 3 claim on a model with exact log Z: RTS (and TI, TI-RB, MBAR from the same
 * samples) against AIS and RAISE at matched Gibbs sweeps per chain, RMSE over many seeds at several
 * budgets. For each seed the annealing runs get as many steps as that seed's RTS run spent sweeps per
 * chain, initialization and initial rounds included.
 */
public final class TemperedComparison {
    /** One method at one budget: the error statistics over seeds. */
    public record Row(int finalSweeps, Method method, double sweepsPerChain, double rmse, double bias, double sd, int seeds,
                      double seconds) {
    }

    private TemperedComparison() {
    }

    /** RTS and its estimators, and AIS (and RAISE from {@code reverseStart}, where not null) at matched sweeps. */
    public static List<Row> run(TemperedPath path, AnnealedImportanceSampling.Start reverseStart, double exactLogZ,
                                int[] budgets, int seeds, int chains, int levels, int roundSweeps, int rounds, long seed,
                                ProgressListener listener) {
        return run(path, true, reverseStart, exactLogZ, budgets, seeds, chains, levels, roundSweeps, rounds, seed,
                listener);
    }

    /** RTS and the estimators read from its samples alone, without the annealing runs beside them. */
    public static List<Row> temperedOnly(TemperedPath path, double exactLogZ, int[] budgets, int seeds, int chains,
                                         int levels, int roundSweeps, int rounds, long seed, ProgressListener listener) {
        return run(path, false, null, exactLogZ, budgets, seeds, chains, levels, roundSweeps, rounds, seed, listener);
    }

    private static List<Row> run(TemperedPath path, boolean annealing, AnnealedImportanceSampling.Start reverseStart,
                                 double exactLogZ, int[] budgets, int seeds, int chains, int levels, int roundSweeps,
                                 int rounds, long seed, ProgressListener listener) {
        List<Row> rows = new ArrayList<>();
        long done = 0;
        for (int budget : budgets) {
            Map<Method, double[]> errors = new LinkedHashMap<>();
            Map<Method, Double> seconds = new LinkedHashMap<>();
            double sweeps = 0;
            for (int s = 0; s < seeds; s++) {
                long key = Philox.replicateSeed(seed, s);
                TemperedResult rts = new TemperedSampling(new TemperedSampling.Settings(chains, Schedule.linear(levels - 1),
                        null, roundSweeps, rounds, budget, 10, 10_000, key)).run(path, ProgressListener.NONE);
                int perChain = (int) (rts.sweeps() / chains);
                sweeps += perChain / (double) seeds;
                for (LevelEstimate e : rts.estimates()) {
                    record(errors, seconds, e.method(), s, seeds, e.logZ() - exactLogZ, rts.seconds());
                }
                if (annealing) {
                    var ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(chains,
                            Schedule.linear(perChain + 1), key));
                    AnnealingResult forward = ais.forward(path, ProgressListener.NONE);
                    record(errors, seconds, Method.AIS, s, seeds, forward.logZ() - exactLogZ, forward.seconds());
                    if (reverseStart != null) {
                        AnnealingResult reverse = ais.reverse(path, reverseStart, ProgressListener.NONE);
                        record(errors, seconds, Method.RAISE, s, seeds, reverse.logZ() - exactLogZ, reverse.seconds());
                    }
                }
                listener.progress(++done, (long) budgets.length * seeds, Double.NaN, Double.NaN);
            }
            for (Map.Entry<Method, double[]> e : errors.entrySet()) {
                double[] err = e.getValue();
                double mean = 0;
                double ss = 0;
                for (double v : err) {
                    mean += v / seeds;
                    ss += v * v / seeds;
                }
                double sd = Math.sqrt(Math.max(0, ss - mean * mean) * seeds / (seeds - 1));
                rows.add(new Row(budget, e.getKey(), sweeps, Math.sqrt(ss), mean, sd, seeds, seconds.get(e.getKey()) / seeds));
            }
        }
        return rows;
    }

    private static void record(Map<Method, double[]> errors, Map<Method, Double> seconds, Method method, int s, int seeds,
                               double error, double time) {
        errors.computeIfAbsent(method, m -> new double[seeds])[s] = error;
        seconds.merge(method, time, Double::sum);
    }

    /** The rows as a Markdown table, captioned with what the errors are measured against. */
    public static String markdown(Reference against, List<Row> rows) {
        StringBuilder sb = new StringBuilder("Errors against the " + against.label() + "\n\n| final RTS sweeps | Gibbs sweeps per chain | method | RMSE | bias | sd | seeds "
                + "| seconds per run |\n| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %d | %.0f | %s | %.3f | %+.3f | %.3f | %d | %.1f |%n", r.finalSweeps(),
                    r.sweepsPerChain(), r.method(), r.rmse(), r.bias(), r.sd(), r.seeds(), r.seconds()));
        }
        return sb.toString();
    }
}
