package org.logz.comparison;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import org.logz.base.ProgressListener;
import org.logz.base.EstimationException;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.estimate.work.WorkEstimators;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * The table of Habeck (2017, §6.1): bounds, AIS, RAISE, cumulant, BAR and histogram estimates of one
 * model against its exact log Z or a reference (NaN where it has neither), one row per number of transitions per annealing step, all from
 * one run of this benchmark; each row on its own schedule where the budget K × N is held fixed (his Fig. 4A). Values
 * are {@code log(Z/Z_0)}, as in the paper.
 */
public final class WorkTable {
    /**
     * One row: the settings and the estimates, each {@code log(Z/Z_0)}, and {@code against}, the exact value or the
     * reference they are measured against (NaN where there is neither); where the forward and reverse work do not
     * overlap, BAR and the histogram estimator are NaN and {@code failure} says why (null otherwise).
     */
    public record Row(int sweepsPerStep, int chains, int steps, double lower, double upper, double ais, double raise,
                      double cumulant, double bar, double barStdErr, double histogram, double histogramStdErr,
                      double against, double seconds, String failure) {
    }

    private WorkTable() {
    }

    /**
     * @param paths the path with a given number of sweeps per step (closed here after its row)
     * @param start the reverse start for a path and a number of chains
     */
    public static List<Row> run(IntFunction<TemperedPath> paths,
                                BiFunction<TemperedPath, Integer, AnnealedImportanceSampling.Start> start, double againstLogZ,
                                int[] sweepsPerStep, int chains, Schedule schedule, long seed, ProgressListener listener) {
        return run(paths, start, againstLogZ, sweepsPerStep, chains, n -> schedule, seed, listener);
    }

    /** {@link #run(IntFunction, BiFunction, double, int[], int, Schedule, long, ProgressListener)}, a schedule per row. */
    public static List<Row> run(IntFunction<TemperedPath> paths,
                                BiFunction<TemperedPath, Integer, AnnealedImportanceSampling.Start> start, double againstLogZ,
                                int[] sweepsPerStep, int chains, IntFunction<Schedule> schedules, long seed,
                                ProgressListener listener) {
        List<Row> rows = new ArrayList<>();
        int done = 0;
        for (int n : sweepsPerStep) {
            Schedule schedule = schedules.apply(n);
            try (TemperedPath path = paths.apply(n)) {
                // the two directions as BidirectionalAnnealing runs them, kept when BAR cannot read them
                long started = System.nanoTime();
                var ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(chains, schedule, seed));
                AnnealingResult f = ais.forwardPart(path, 0, chains, ProgressListener.NONE);
                AnnealingResult r = ais.reversePart(path, start.apply(path, chains), 0, chains, ProgressListener.NONE);
                double seconds = (System.nanoTime() - started) * 1e-9;
                double z0 = f.logZ0();
                try {
                    BidirectionalResult b = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(chains, chains,
                            schedule, 200, seed)).estimate(f, r);
                    rows.add(new Row(n, chains, schedule.steps(), b.logZ(Method.LOWER_BOUND) - z0,
                            b.logZ(Method.UPPER_BOUND) - z0, b.logZ(Method.JARZYNSKI_FORWARD) - z0,
                            b.logZ(Method.JARZYNSKI_REVERSE) - z0, b.logZ(Method.CUMULANT) - z0, b.logZ(Method.BAR) - z0,
                            b.estimate(Method.BAR).stdErr().orElseThrow(),
                            b.has(Method.HISTOGRAM) ? b.logZ(Method.HISTOGRAM) - z0 : Double.NaN,
                            b.has(Method.HISTOGRAM) ? b.estimate(Method.HISTOGRAM).stdErr().orElse(Double.NaN) : Double.NaN,
                            againstLogZ - z0, seconds,
                            b.failures().isEmpty() ? null : b.failures().get(0).message()));
                } catch (EstimationException e) {
                    double[] wF = f.work();
                    double[] wR = r.work();
                    rows.add(new Row(n, chains, schedule.steps(), WorkEstimators.lowerBound(wF).logRatio(),
                            WorkEstimators.upperBound(wR).logRatio(), WorkEstimators.jarzynskiForward(wF).logRatio(),
                            WorkEstimators.jarzynskiReverse(wR).logRatio(), WorkEstimators.cumulant(wF, wR).logRatio(),
                            Double.NaN, Double.NaN, Double.NaN, Double.NaN, againstLogZ - z0, seconds, e.getMessage()));
                }
            }
            listener.progress(++done, sweepsPerStep.length, Double.NaN, Double.NaN);
        }
        return rows;
    }

    /**
     * The rows as a Markdown table, the closest estimates of each row (within 0.005) in bold where the value they are
     * measured against is known; {@code against} heads its column ({@code exact} or {@code reference}).
     */
    public static String markdown(List<Row> rows, String against) {
        StringBuilder sb = new StringBuilder("| sweeps per step | M | K | ⟨log w⟩_f | ⟨log w⟩_r | AIS | RAISE | cumulant | BAR "
                + "| histogram | " + against + " | seconds |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            double[] estimates = {r.ais(), r.raise(), r.cumulant(), r.bar(), r.histogram()};
            double best = Double.POSITIVE_INFINITY;
            for (double e : estimates) {
                best = Math.min(best, Math.abs(e - r.against()));
            }
            sb.append(String.format(Locale.ROOT, "| %d | %d | %d | %.2f | %.2f |", r.sweepsPerStep(), r.chains(), r.steps(),
                    r.lower(), r.upper()));
            for (int i = 0; i < estimates.length; i++) {
                String v = Double.isNaN(estimates[i]) ? (Double.isNaN(r.bar()) ? "no overlap" : "failed")
                        : i == 3 ? String.format(Locale.ROOT, "%.2f ± %.2f", estimates[i], r.barStdErr())
                        : i == 4 && !Double.isNaN(r.histogramStdErr())
                        ? String.format(Locale.ROOT, "%.2f ± %.2f", estimates[i], r.histogramStdErr())
                        : String.format(Locale.ROOT, "%.2f", estimates[i]);
                sb.append(' ').append(Math.abs(estimates[i] - r.against()) <= best + 0.005 ? "**" + v + "**" : v).append(" |");
            }
            sb.append(Double.isNaN(r.against()) ? " – |" : String.format(Locale.ROOT, " %.2f |", r.against()))
                    .append(String.format(Locale.ROOT, " %.0f |%n", r.seconds()));
        }
        return sb.toString();
    }
}
