package org.logz.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.comparison.WorkTable;
import org.logz.problem.Problem;
import org.logz.problem.Reference;
import org.logz.schedule.Schedule;

/**
 * Habeck (2017) §6.1 and Fig. 3: the 32×32 Ising model (exact log(Z/2^1024) = 1339.27), M = 1000 forward and reverse
 * paths on a linear schedule of K = 1000 steps with N = 1000 single-spin Metropolis updates per step; forward paths from
 * random spins, reverse ones from the two ground states. logz moves by heat-bath sweeps: one sweep (1024 single-site
 * updates) stands for N = 1000, and Fig. 3C's N up to 10^4 are 2, 5 and 10 sweeps. The scale is the fraction of M.
 */
public final class HabeckIsing implements Reproduction {
    private static final int PAPER_CHAINS = 1000;
    private static final int STEPS = 1000;
    /** Heat-bath sweeps per step: the first row is the paper's Fig. 3A/§6.1 setting, all four Fig. 3C's axis. */
    private static final int[] SWEEPS = {1, 2, 5, 10};

    @Override
    public String name() {
        return "habeck-fig3";
    }

    @Override
    public String summary() {
        return "Habeck 2017, §6.1 and Fig. 3: 32×32 Ising, M = K = N = 1000, the bounds, AIS, RAISE, BAR and the "
                + "histogram estimator against the exact log Z, and Fig. 3C's estimates against N";
    }

    @Override
    public double defaultScale() {
        return 0.25;
    }

    @Override
    public String fullCost() {
        return "about 10 minutes on 2 cores (30 s for the N = 1000 row alone)";
    }

    @Override
    public Outcome run(Context context) {
        Problem problem = Problem.parse("ising:L=32");
        int chains = context.scaled(PAPER_CHAINS, 2);
        // a smoke run anneals over 100 steps
        int steps = context.smoke() ? 100 : STEPS;
        List<WorkTable.Row> rows = WorkTable.run(n -> problem.annealingPath(context.backend(),
                        new Problem.PathOptions("auto", null, n, context.seed())),
                (path, m) -> problem.reverseStart(null, path, m), problem.knownExactLogZ().orElseThrow(), SWEEPS, chains,
                Schedule.linear(steps), context.seed(), context.progress());
        WorkTable.Row main = rows.get(0);
        List<Line> lines = new ArrayList<>(List.of(
                new Line("exact log(Z/2^1024)", "1339.27", f(main.against())),
                new Line("lower bound ⟨log w⟩_f", "1290.5", f(main.lower())),
                new Line("upper bound ⟨log w⟩_r", "1352.0", f(main.upper())),
                new Line("AIS", "1333.66", f(main.ais())),
                new Line("RAISE", "1342.05", f(main.raise())),
                new Line("BAR", "1338.05", pm(main.bar(), main.barStdErr())),
                new Line("histogram", "1338.28", pm(main.histogram(), main.histogramStdErr()))));
        for (WorkTable.Row r : rows.subList(1, rows.size())) {
            String n = String.format(Locale.ROOT, "N = %d sweeps (Fig. 3C)", r.sweepsPerStep());
            lines.add(new Line("AIS / RAISE, " + n, "-", f(r.ais()) + " / " + f(r.raise())));
            lines.add(new Line("BAR / histogram, " + n, "-", f(r.bar()) + " / " + f(r.histogram())));
        }
        String settings = String.format(Locale.ROOT, "%d forward + %d reverse chains × %d linear steps, 1, 2, 5 and 10 "
                + "heat-bath sweeps per step (N ≈ 1000 to 10^4 single-site updates)", chains, chains, steps);
        return new Outcome(settings, Reference.exact(main.against(), "Kaufman's formula, as log(Z/2^1024)"), lines,
                claims(rows));
    }

    /**
     * The paper's claims: the bounds bracket log Z (Habeck eq. 7), AIS lies below and RAISE above it, and at every N
     * BAR and the histogram estimator come closer than both Jarzynski estimators (§6.1, Fig. 3C).
     */
    private static Claims claims(List<WorkTable.Row> rows) {
        Claims claims = new Claims();
        WorkTable.Row main = rows.get(0);
        claims.check(main.lower() <= main.against() && main.against() <= main.upper(), String.format(Locale.ROOT,
                "the bounds [%.2f, %.2f] bracket the exact value", main.lower(), main.upper()));
        claims.check(main.ais() < main.against() && main.raise() > main.against(), String.format(Locale.ROOT,
                "AIS lies %.2f below and RAISE %.2f above the exact value", main.against() - main.ais(),
                main.raise() - main.against()));
        for (WorkTable.Row r : rows) {
            double ais = Math.abs(r.ais() - r.against());
            double raise = Math.abs(r.raise() - r.against());
            double pooled = Math.max(Math.abs(r.bar() - r.against()), Math.abs(r.histogram() - r.against()));
            boolean closer = pooled < Math.min(ais, raise);
            claims.check(closer, Double.isNaN(pooled)
                    ? String.format(Locale.ROOT, "at %d sweeps per step the work distributions do not overlap, so BAR "
                    + "and the histogram estimator have no answer", r.sweepsPerStep())
                    : String.format(Locale.ROOT, "at %d sweeps per step BAR/histogram's error %.2f (± %.2f) is %s AIS's "
                    + "%.2f and RAISE's %.2f", r.sweepsPerStep(), pooled, r.barStdErr(), closer ? "below" : "not below",
                    ais, raise));
        }
        return claims;
    }

    private static String f(double v) {
        return Double.isNaN(v) ? "no overlap" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String pm(double v, double se) {
        return Double.isNaN(v) ? "no overlap" : String.format(Locale.ROOT, "%.2f ± %.2f", v, se);
    }
}
