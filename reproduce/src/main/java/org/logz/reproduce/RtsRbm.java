package org.logz.reproduce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.logz.comparison.TemperedComparison;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.Method;
import org.logz.path.TemperedPath;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

/**
 * The RTS paper (Carlson et al. 2016), §4.2 and Fig. 3: on the CD-25 MNIST RBM (784×500, Salakhutdinov &amp; Murray's),
 * RTS with 100 chains on K = 100 inverse temperatures against AIS and RAISE with as many Gibbs sweeps per chain, all
 * from the base rate that matches the training data's marginals, at budgets of 10^3 to 10^5 sweeps per chain; RMSE
 * and bias over seeds against logz's reference (451.24 ± 0.015; the paper's truth was the mean of long AIS and RTS
 * runs). logz's initial rounds double in length: 3 rounds from 50 sweeps (350) where the paper ran 10 rounds of 50.
 * The scale picks the budgets: those of 10^3, 10^4 and 10^5 sweeps per chain at most 10^5 · scale (10^3 always).
 */
public final class RtsRbm implements Reproduction {
    private static final int CHAINS = 100;
    private static final int LEVELS = 100;
    private static final int SEEDS = 10;
    private static final int[] PAPER_BUDGETS = {1_000, 10_000, 100_000};
    /** Initial rounds of 50, 100 and 200 sweeps: 350 of the smallest budget, near the paper's 10 rounds of 50. */
    private static final int ROUND_SWEEPS = 50;
    private static final int ROUNDS = 3;

    @Override
    public String name() {
        return "rts-fig3";
    }

    @Override
    public String summary() {
        return "RTS paper, §4.2 and Fig. 3: the CD-25 MNIST RBM (784×500), RTS on 100 temperatures against AIS and RAISE "
                + "at matched Gibbs sweeps per chain (10^3 to 10^5), RMSE and bias over 10 seeds against the reference";
    }

    @Override
    public double defaultScale() {
        return 0.1;
    }

    @Override
    public String fullCost() {
        return "budgets up to 10^5 sweeps per chain, 10 seeds: about an hour on 2 cores";
    }

    @Override
    public boolean onCd25() {
        return true;
    }

    @Override
    public Outcome run(Context context) {
        Problem problem = context.cd25();
        Reference against = context.against(problem, "reproduce rts-fig3");
        // a smoke run: 10 chains on 10 levels, one initial round of 10 sweeps, one budget of 100 sweeps
        int chains = context.smoke() ? 10 : CHAINS;
        int levels = context.smoke() ? 10 : LEVELS;
        int seeds = context.smoke() ? 2 : SEEDS;
        int roundSweeps = context.smoke() ? 10 : ROUND_SWEEPS;
        int rounds = context.smoke() ? 1 : ROUNDS;
        int[] budgets = context.smoke() ? new int[] {100} : Arrays.stream(PAPER_BUDGETS)
                .filter(b -> b == PAPER_BUDGETS[0] || b <= PAPER_BUDGETS[2] * context.scale()).toArray();
        // final sweeps: the budget less the initial rounds; the table's "sweeps per chain" counts those, the annealing
        // pass that seeds Ẑ and the burn-in, and the annealing runs match that count
        int initial = roundSweeps * ((1 << rounds) - 1);
        int[] finalSweeps = Arrays.stream(budgets).map(b -> Math.max(50, b - initial)).toArray();
        Problem.PathOptions options = new Problem.PathOptions("data", "mnist", 1, context.seed());
        List<TemperedComparison.Row> rows;
        try (TemperedPath path = problem.temperingPath(context.backend(), options)) {
            AnnealedImportanceSampling.Start start = problem.reverseStart(null, path, chains, options);
            rows = TemperedComparison.run(path, start, against.logZ(), finalSweeps, seeds, chains, levels, roundSweeps,
                    rounds, context.seed(), context.progress());
        }
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("log Z measured against", "mean of long AIS and RTS runs", against.label()));
        for (int finalBudget : finalSweeps) {
            Map<Method, TemperedComparison.Row> at = byMethod(rows, finalBudget);
            TemperedComparison.Row rts = at.get(Method.RTS);
            lines.add(new Line(String.format(Locale.ROOT, "RMSE at %,.0f sweeps: RTS / AIS / RAISE", rts.sweepsPerChain()),
                    "RTS lowest", String.format(Locale.ROOT, "%.3f / %.3f / %.3f", rts.rmse(), at.get(Method.AIS).rmse(),
                    at.get(Method.RAISE).rmse())));
            lines.add(new Line(String.format(Locale.ROOT, "bias at %,.0f sweeps: RTS / AIS / RAISE", rts.sweepsPerChain()),
                    "RTS's falls quickest", String.format(Locale.ROOT, "%+.3f / %+.3f / %+.3f", rts.bias(),
                    at.get(Method.AIS).bias(), at.get(Method.RAISE).bias())));
        }
        String settings = String.format(Locale.ROOT, "%s from the data base rate, %d chains, RTS on %d linear levels (%d "
                + "initial round(s) from %d sweeps, doubling), AIS and RAISE (reverse from training examples) at the same "
                + "sweeps per chain, budgets of %s sweeps per chain, %d seeds", context.cd25Name(problem), chains, levels,
                rounds, roundSweeps, Arrays.toString(budgets), seeds);
        return new Outcome(settings, against, lines, claims(rows, finalSweeps));
    }

    private static Map<Method, TemperedComparison.Row> byMethod(List<TemperedComparison.Row> rows, int finalSweeps) {
        return rows.stream().filter(r -> r.finalSweeps() == finalSweeps)
                .collect(Collectors.toMap(TemperedComparison.Row::method, r -> r));
    }

    /**
     * The paper's claims: RTS has the lowest RMSE at every budget, and AIS at ten times RTS's smallest budget is still
     * no better than RTS there ("the RMSE of AIS does not approach that of RTS at 1000 Gibbs sweeps until over an order
     * of magnitude later"), which needs two budgets.
     */
    private static Claims claims(List<TemperedComparison.Row> rows, int[] finalSweeps) {
        Claims claims = new Claims();
        for (int b : finalSweeps) {
            Map<Method, TemperedComparison.Row> at = byMethod(rows, b);
            double rts = at.get(Method.RTS).rmse();
            boolean lowest = rts < at.get(Method.AIS).rmse() && rts < at.get(Method.RAISE).rmse();
            claims.check(lowest, String.format(Locale.ROOT, "at %,.0f sweeps RTS's RMSE %.3f is %sbelow AIS's %.3f and "
                    + "RAISE's %.3f", at.get(Method.RTS).sweepsPerChain(), rts, lowest ? "" : "not ",
                    at.get(Method.AIS).rmse(), at.get(Method.RAISE).rmse()));
        }
        if (finalSweeps.length > 1) {
            double rtsFirst = byMethod(rows, finalSweeps[0]).get(Method.RTS).rmse();
            double aisLater = byMethod(rows, finalSweeps[1]).get(Method.AIS).rmse();
            claims.check(aisLater >= rtsFirst, String.format(Locale.ROOT, "AIS at ten times the sweeps has RMSE %.3f "
                    + "against RTS's %.3f", aisLater, rtsFirst));
        } else {
            claims.untested("AIS at ten times the sweeps against RTS (needs --scale 0.1 or more for the second budget)");
        }
        return claims;
    }
}
