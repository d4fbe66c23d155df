package org.logz.reproduce;

import java.util.List;
import java.util.Locale;

import org.logz.base.ProgressListener;
import org.logz.comparison.WorkTable;
import org.logz.problem.Problem;
import org.logz.problem.Reference;
import org.logz.schedule.Schedule;

/**
 * Habeck (2017) §6.3 and Fig. 4C: the CD-25 MNIST RBM annealed on its full path (visible and hidden units, Gibbs
 * sweeps, from the data's base rate) against its marginal path (the hidden units alone, the visible ones summed out,
 * Metropolis sweeps, from the uniform h), BAR from forward runs and reverse runs started at training examples after 100
 * sweeps at β = 1, against the reference. The paper gives neither M nor K; logz runs 50 + 50 chains, 16,000 full steps
 * and 2,000 marginal ones (which give BAR errors alike), and compares the cost at equal accuracy, seconds × SE².
 * The scale is the fraction of the steps.
 */
public final class HabeckMarginal implements Reproduction {
    private static final int CHAINS = 50;
    private static final int FULL_STEPS = 16_000;
    private static final int MARGINAL_STEPS = 2_000;
    /** Habeck's reverse starts: a training example, then 100 sweeps at β = 1. */
    private static final String REVERSE_START = "data:100";

    @Override
    public String name() {
        return "habeck-fig4c";
    }

    @Override
    public String summary() {
        return "Habeck 2017, §6.3 and Fig. 4C: the CD-25 MNIST RBM annealed on its full path against its marginal path "
                + "over the hidden units, BAR against the reference and the cost at equal accuracy";
    }

    @Override
    public double defaultScale() {
        return 1;
    }

    @Override
    public String fullCost() {
        return "16,000 full and 2,000 marginal steps of 50 + 50 chains: about 3 minutes on 2 cores";
    }

    @Override
    public boolean onCd25() {
        return true;
    }

    @Override
    public Outcome run(Context context) {
        Problem problem = context.cd25();
        Reference against = context.against(problem, "reproduce habeck-fig4c");
        int chains = context.smoke() ? 4 : CHAINS;
        int fullSteps = context.scaled(FULL_STEPS, 100);
        int marginalSteps = context.scaled(MARGINAL_STEPS, 10);
        WorkTable.Row full = anneal(context, problem, against, "full", "data", chains, fullSteps, 0);
        WorkTable.Row marginal = anneal(context, problem, against, "marginal", "auto", chains, marginalSteps, 1);
        List<Line> lines = List.of(
                new Line("log Z measured against", "451.42 (parallel tempering)", against.label()),
                new Line("full path: BAR, seconds", "451.43", estimate(full, against)),
                new Line("marginal path: BAR, seconds", "451.48", estimate(marginal, against)),
                new Line("cost at equal accuracy, full / marginal (seconds × SE²)", "3 (\"three times faster\")",
                        Double.isNaN(full.bar()) || Double.isNaN(marginal.bar()) ? "–"
                                : String.format(Locale.ROOT, "%.2f", cost(full) / cost(marginal))));
        String settings = String.format(Locale.ROOT, "%s, %d forward + %d reverse chains, linear schedules, full path "
                + "%,d steps of one Gibbs sweep from the MNIST base rate, marginal path %,d steps of one Metropolis "
                + "sweep over the hidden units from the uniform h, reverse runs from training examples after 100 sweeps "
                + "at β = 1", context.cd25Name(problem), chains, chains, fullSteps, marginalSteps);
        return new Outcome(settings, against, lines, claims(full, marginal, against));
    }

    private static WorkTable.Row anneal(Context context, Problem problem, Reference against, String path, String baseRate,
                                        int chains, int steps, int part) {
        var options = new Problem.PathOptions(baseRate, "mnist", 1, context.seed(), null, null, path, null);
        return WorkTable.run(n -> problem.annealingPath(context.backend(), options),
                (p, m) -> problem.reverseStart(REVERSE_START, p, m, options), against.logZ(), new int[] {1}, chains,
                Schedule.linear(steps), context.seed(),
                ProgressListener.part(context.progress(), part, 2)).get(0);
    }

    /** Seconds × SE²: the time a run of this path needs for a given standard error, up to a common factor. */
    private static double cost(WorkTable.Row row) {
        return row.seconds() * row.barStdErr() * row.barStdErr();
    }

    /** BAR's log Z: the rows hold log(Z/Z_0) and the reference shifted by the same log Z_0. */
    private static String estimate(WorkTable.Row row, Reference against) {
        return Double.isNaN(row.bar()) ? "no overlap" : String.format(Locale.ROOT, "%.3f ± %.3f, %.1f s",
                row.bar() - row.against() + against.logZ(), row.barStdErr(), row.seconds());
    }

    /**
     * The paper's claims (§6.3): both paths give estimates close to the reference, and the marginal path is three
     * times faster (here: its cost at equal accuracy is at most a third of the full path's).
     */
    private static Claims claims(WorkTable.Row full, WorkTable.Row marginal, Reference against) {
        Claims claims = new Claims();
        for (WorkTable.Row r : List.of(full, marginal)) {
            String path = r == full ? "the full path" : "the marginal path";
            if (Double.isNaN(r.bar())) {
                claims.untested(path + "'s forward and reverse work do not overlap at this scale: " + r.failure());
                continue;
            }
            double z = Math.abs(r.bar() - r.against()) / Math.hypot(r.barStdErr(), against.stdErr());
            claims.check(z <= 3, String.format(Locale.ROOT, "%s's BAR lies %.1f standard errors from the reference "
                    + "(3 allowed)", path, z));
        }
        if (!Double.isNaN(full.bar()) && !Double.isNaN(marginal.bar())) {
            double ratio = cost(full) / cost(marginal);
            claims.check(ratio >= 3, String.format(Locale.ROOT, "the marginal path is %.2f times %s than the full one "
                    + "at equal accuracy (seconds × SE² on this machine)", ratio >= 1 ? ratio : 1 / ratio,
                    ratio >= 1 ? "faster" : "slower"));
        }
        return claims;
    }
}
