package org.logz.reproduce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.logz.base.ProgressListener;
import org.logz.comparison.WorkTable;
import org.logz.model.potts.PottsLowTemperature;
import org.logz.problem.Problem;
import org.logz.problem.Reference;
import org.logz.schedule.Schedule;

/**
 * Habeck (2017) §6.2 and Fig. 4A: the ten-state Potts model on the 32×32 torus at J = 2, forward and reverse annealing
 * on linear schedules at a fixed budget K × N = 10^9 single-site updates (10^6 heat-bath sweeps per chain, one sweep
 * standing for 1024 updates), K from 10^3 to 10^5, M = 100 chains each way, ten repetitions. Habeck measured against
 * parallel tempering's log Z − N ln q = 1742; logz measures against the low-temperature expansion,
 * 1743.78 ± 0.02 ({@link PottsLowTemperature}), and prints his value beside it. The scale is the fraction of the
 * budget per chain (rounded to a multiple of 1000 sweeps); each row spends all of it, at 1000, 100, 10 or 1 sweeps per
 * step where that leaves 100 to 10^5 steps; repetitions are ten times the scale, at least one.
 */
public final class HabeckPotts implements Reproduction {
    private static final int PAPER_CHAINS = 100;
    private static final int PAPER_SWEEPS = 1_000_000;
    private static final int REPETITIONS = 10;
    private static final int[] SWEEPS_PER_STEP = {1000, 100, 10, 1};
    /** χ² at 99.9% for 1, 2 and 3 degrees of freedom: BAR's means over K agreeing, tested at 0.1% false alarms. */
    private static final double[] CHI2_999 = {10.83, 13.82, 16.27};

    @Override
    public String name() {
        return "habeck-fig4a";
    }

    @Override
    public String summary() {
        return "Habeck 2017, §6.2 and Fig. 4A: ten-state Potts 32×32, J = 2, the bounds, AIS, RAISE, the cumulant "
                + "estimator, BAR and the histogram estimator at a fixed budget K × N = 10^9, K = 10^3 to 10^5, M = 100";
    }

    @Override
    public double defaultScale() {
        return 0.01;
    }

    @Override
    public String fullCost() {
        return "10^6 sweeps per chain, 100 + 100 chains, three K, ten repetitions: about 100 hours on 2 cores (one K of "
                + "32 + 32 chains took 57 minutes)";
    }

    @Override
    public Outcome run(Context context) {
        Problem problem = Problem.parse("potts:q=10,L=32");
        double offset = problem.convention().orElseThrow().offset();
        Reference expansion = problem.storedReference().orElseThrow();
        // the lines' convention, log Z − N ln q
        Reference against = new Reference(expansion.logZ() - offset, expansion.stdErr(), Reference.REFERENCE,
                expansion.source() + ", as log Z − N ln q");
        int chains = context.smoke() ? 4 : PAPER_CHAINS;
        int budget = 1000 * context.scaled(PAPER_SWEEPS / 1000, 1);
        int repetitions = context.scaled(REPETITIONS, 1);
        int[] sweeps = Arrays.stream(SWEEPS_PER_STEP)
                .filter(n -> budget / n >= 100 && budget / n <= 100_000).toArray();
        List<List<WorkTable.Row>> runs = new ArrayList<>();
        for (int rep = 0; rep < repetitions; rep++) {
            long seed = context.seed() + rep;
            runs.add(WorkTable.run(n -> problem.annealingPath(context.backend(), new Problem.PathOptions("auto", null, n,
                            seed)), (path, m) -> problem.reverseStart(null, path, m), expansion.logZ(), sweeps, chains,
                    n -> Schedule.linear(budget / n), seed, ProgressListener.part(context.progress(), rep, repetitions)));
        }
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("log Z − N ln q", "1742 (parallel tempering)", String.format(Locale.ROOT,
                "%.2f ± %.2f (low-temperature expansion)", against.logZ(), against.stdErr())));
        for (int i = 0; i < sweeps.length; i++) {
            List<WorkTable.Row> row = column(runs, i);
            String at = String.format(Locale.ROOT, "K = %d steps of %d sweep%s", budget / sweeps[i], sweeps[i],
                    sweeps[i] == 1 ? "" : "s");
            lines.add(new Line("bounds ⟨log w⟩_f / ⟨log w⟩_r, " + at, "-",
                    mean(row, WorkTable.Row::lower) + " / " + mean(row, WorkTable.Row::upper)));
            lines.add(new Line("AIS / RAISE / cumulant, " + at, "-",
                    mean(row, WorkTable.Row::ais) + " / " + mean(row, WorkTable.Row::raise) + " / "
                            + mean(row, WorkTable.Row::cumulant)));
            Bar bar = Bar.of(row);
            lines.add(new Line("BAR / histogram, " + at, "on 1742", Double.isNaN(bar.mean()) ? "no overlap"
                    : String.format(Locale.ROOT, "%.2f ± %.2f / %s", bar.mean(), bar.stdErr(),
                    mean(row, WorkTable.Row::histogram))));
        }
        String settings = String.format(Locale.ROOT, "%d forward + %d reverse chains (reverse from the ten ground "
                        + "states), linear schedules, %,d heat-bath sweeps per chain in every row, %d repetition%s; "
                        + "values are log Z − N ln q, averaged over the repetitions", chains, chains, budget, repetitions,
                repetitions == 1 ? "" : "s");
        return new Outcome(settings, against, lines, claims(runs, sweeps.length, budget, against));
    }

    /** Row {@code i} (one K) of every repetition. */
    private static List<WorkTable.Row> column(List<List<WorkTable.Row>> runs, int i) {
        return runs.stream().map(r -> r.get(i)).toList();
    }

    private static String mean(List<WorkTable.Row> rows, ToDoubleFunction<WorkTable.Row> value) {
        double m = rows.stream().mapToDouble(value).average().orElse(Double.NaN);
        return Double.isNaN(m) ? "no overlap" : String.format(Locale.ROOT, "%.2f", m);
    }

    /** BAR's mean over the repetitions at one K and its standard error (NaN where a run had no overlap). */
    private record Bar(double mean, double stdErr) {
        static Bar of(List<WorkTable.Row> rows) {
            double mean = rows.stream().mapToDouble(WorkTable.Row::bar).average().orElseThrow();
            double variance = rows.stream().mapToDouble(r -> r.barStdErr() * r.barStdErr()).sum();
            return new Bar(mean, Math.sqrt(variance) / rows.size());
        }
    }

    /**
     * The paper's claims (§6.2, Fig. 4A): the bounds bracket log Z in every run, AIS's and RAISE's means over the
     * repetitions lie below and above it at every K, BAR lands on it
     * (here: each K's mean within 3 standard errors, the reference's included), and no K does better than another at
     * the fixed budget (here: BAR's means over K agree by a χ² test at the 0.1% level). BAR needs forward and reverse
     * work that overlap, which small budgets do not give: those claims are then not tested.
     */
    private static Claims claims(List<List<WorkTable.Row>> runs, int ks, int budget, Reference against) {
        Claims claims = new Claims();
        List<WorkTable.Row> all = runs.stream().flatMap(List::stream).toList();
        // the rows hold log(Z/Z_0) = log Z − N ln q, as the reference here
        double z = against.logZ();
        boolean bracket = all.stream().allMatch(r -> r.lower() <= z && z <= r.upper());
        claims.check(bracket, String.format(Locale.ROOT, "the bounds %s %.2f in every run", bracket ? "bracket"
                : "do not bracket", z));
        // the figure's AIS and RAISE are averages over repetitions: each K's mean, as every line shows them
        List<Double> ais = new ArrayList<>();
        List<Double> raise = new ArrayList<>();
        for (int i = 0; i < ks; i++) {
            ais.add(column(runs, i).stream().mapToDouble(WorkTable.Row::ais).average().orElseThrow());
            raise.add(column(runs, i).stream().mapToDouble(WorkTable.Row::raise).average().orElseThrow());
        }
        long below = ais.stream().filter(a -> a < z).count();
        long above = raise.stream().filter(r -> r > z).count();
        claims.check(below == ks && above == ks, below == ks && above == ks ? String.format(Locale.ROOT, "AIS lies %.2f "
                + "to %.2f below %.2f and RAISE %.2f to %.2f above it", z - Collections.max(ais), z - Collections.min(ais),
                z, Collections.min(raise) - z, Collections.max(raise) - z) : String.format(Locale.ROOT, "AIS lies below "
                + "%.2f at %d of %d K and RAISE above it at %d", z, below, ks, above));
        long missing = all.stream().filter(r -> Double.isNaN(r.bar())).count();
        if (missing > 0) {
            claims.untested(String.format(Locale.ROOT, "BAR on log Z, and no K better than another: the forward and "
                    + "reverse work do not overlap in %d of %d runs at %,d sweeps per chain (Habeck's 10^6 close the "
                    + "gap)", missing, all.size(), budget));
            return claims;
        }
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < ks; i++) {
            bars.add(Bar.of(column(runs, i)));
        }
        double worst = bars.stream().mapToDouble(b -> Math.abs(b.mean() - z) / Math.hypot(b.stdErr(), against.stdErr()))
                .max().orElseThrow();
        claims.check(worst <= 3, String.format(Locale.ROOT, "BAR's mean at each K lies within %.1f standard errors of "
                + "%.2f (3 allowed)", worst, z));
        if (ks < 2) {
            claims.untested("no K better than another: one K runs at this budget");
            return claims;
        }
        double weights = bars.stream().mapToDouble(b -> 1 / (b.stdErr() * b.stdErr())).sum();
        double pooled = bars.stream().mapToDouble(b -> b.mean() / (b.stdErr() * b.stdErr())).sum() / weights;
        double chi2 = bars.stream().mapToDouble(b -> Math.pow((b.mean() - pooled) / b.stdErr(), 2)).sum();
        double limit = CHI2_999[Math.min(ks - 2, CHI2_999.length - 1)];
        claims.check(chi2 <= limit, String.format(Locale.ROOT, "BAR's means over the %d K %s (χ² %.1f on %d degrees of "
                + "freedom, %.1f allowed)", ks, chi2 <= limit ? "agree" : "differ", chi2, ks - 1, limit));
        return claims;
    }
}
