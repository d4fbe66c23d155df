package org.logz.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * The table of Habeck (2017, §6.1): bounds, AIS, RAISE, cumulant, BAR and histogram estimates of one
 * model against its exact log Z, one row per number of transitions per annealing step, all from one
 * run of this benchmark. Values are {@code log(Z/Z_0)}, as in the paper.
 */
public final class WorkTable {
    /** One row: the settings and the estimates, each {@code log(Z/Z_0)}. */
    public record Row(int sweepsPerStep, int chains, int steps, double lower, double upper, double ais, double raise,
                      double cumulant, double bar, double barStdErr, double histogram, double exact, double seconds) {
    }

    private WorkTable() {
    }

    /**
     * @param paths the path with a given number of sweeps per step (closed here after its row)
     * @param start the reverse start for a path and a number of chains
     */
    public static List<Row> run(IntFunction<TemperedPath> paths,
                                BiFunction<TemperedPath, Integer, AnnealedImportanceSampling.Start> start, double exactLogZ,
                                int[] sweepsPerStep, int chains, Schedule schedule, long seed, ProgressListener listener) {
        List<Row> rows = new ArrayList<>();
        int done = 0;
        for (int n : sweepsPerStep) {
            try (TemperedPath path = paths.apply(n)) {
                BidirectionalResult r = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(chains, chains, schedule,
                        200, seed)).run(path, start.apply(path, chains), ProgressListener.NONE);
                double z0 = r.logZ0();
                rows.add(new Row(n, chains, schedule.steps(), r.logZ(Method.LOWER_BOUND) - z0, r.logZ(Method.UPPER_BOUND) - z0,
                        r.logZ(Method.JARZYNSKI_FORWARD) - z0, r.logZ(Method.JARZYNSKI_REVERSE) - z0, r.logZ(Method.CUMULANT) - z0,
                        r.logZ(Method.BAR) - z0, r.estimate(Method.BAR).stdErr().orElseThrow(), r.logZ(Method.HISTOGRAM) - z0,
                        exactLogZ - z0, r.seconds()));
            }
            listener.progress(++done, sweepsPerStep.length, Double.NaN, Double.NaN);
        }
        return rows;
    }

    /** The rows as a Markdown table, the closest estimates of each row (within 0.005) in bold. */
    public static String markdown(List<Row> rows) {
        StringBuilder sb = new StringBuilder("| sweeps per step | M | K | ⟨log w⟩_f | ⟨log w⟩_r | AIS | RAISE | cumulant | BAR "
                + "| histogram | exact | seconds |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            double[] estimates = {r.ais(), r.raise(), r.cumulant(), r.bar(), r.histogram()};
            double best = Double.POSITIVE_INFINITY;
            for (double e : estimates) {
                best = Math.min(best, Math.abs(e - r.exact()));
            }
            sb.append(String.format(Locale.ROOT, "| %d | %d | %d | %.2f | %.2f |", r.sweepsPerStep(), r.chains(), r.steps(),
                    r.lower(), r.upper()));
            for (int i = 0; i < estimates.length; i++) {
                String v = String.format(Locale.ROOT, i == 3 ? "%.2f ± %.2f" : "%.2f", estimates[i], r.barStdErr());
                sb.append(' ').append(Math.abs(estimates[i] - r.exact()) <= best + 0.005 ? "**" + v + "**" : v).append(" |");
            }
            sb.append(String.format(Locale.ROOT, " %.2f | %.0f |%n", r.exact(), r.seconds()));
        }
        return sb.toString();
    }
}
