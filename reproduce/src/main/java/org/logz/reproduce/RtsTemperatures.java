package org.logz.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.base.ProgressListener;
import org.logz.comparison.TemperedComparison;
import org.logz.estimate.Method;
import org.logz.path.TemperedPath;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

/**
 * The RTS paper (Carlson et al. 2016), §4.3 and Fig. 4: the RMSE of RTS, TS (RTS without the Rao-Blackwellization),
 * TI, TI-RB and MBAR against the number of inverse temperatures K on the CD-25 MNIST RBM. The paper read each K from
 * bootstrap resamples of one long run (3 million samples); logz runs each K afresh, 100 chains from the data base rate,
 * the same final sweeps per chain at every K, over seeds. The scale is the fraction of 20 seeds.
 */
public final class RtsTemperatures implements Reproduction {
    private static final int CHAINS = 100;
    private static final int SEEDS = 20;
    private static final int FINAL_SWEEPS = 2000;
    private static final int[] LEVELS = {10, 30, 100, 300};
    private static final List<Method> METHODS = List.of(Method.RTS, Method.TS, Method.TI, Method.TI_RB, Method.MBAR);

    @Override
    public String name() {
        return "rts-fig4";
    }

    @Override
    public String summary() {
        return "RTS paper, §4.3 and Fig. 4: the CD-25 MNIST RBM, RMSE of RTS, TS, TI, TI-RB and MBAR against the number "
                + "of temperatures K = 10 to 300, 100 chains, 2000 final sweeps, 20 seeds, against the reference";
    }

    @Override
    public double defaultScale() {
        return 0.25;
    }

    @Override
    public String fullCost() {
        return "20 seeds at each K: about 25 minutes on 2 cores (the paper's K up to 1000 another hour)";
    }

    @Override
    public boolean onCd25() {
        return true;
    }

    @Override
    public Outcome run(Context context) {
        Problem problem = context.cd25();
        Reference against = context.against(problem, "reproduce rts-fig4");
        // a smoke run: 10 chains, K = 5 and 10, 50 final sweeps after one initial round of 10
        int chains = context.smoke() ? 10 : CHAINS;
        int seeds = context.scaled(SEEDS, 2);
        int finalSweeps = context.smoke() ? 50 : FINAL_SWEEPS;
        int[] levels = context.smoke() ? new int[] {5, 10} : LEVELS;
        int roundSweeps = context.smoke() ? 10 : 50;
        int rounds = context.smoke() ? 1 : 3;
        Problem.PathOptions options = new Problem.PathOptions("data", "mnist", 1, context.seed());
        double[][] rmse = new double[levels.length][METHODS.size()];
        try (TemperedPath path = problem.temperingPath(context.backend(), options)) {
            for (int k = 0; k < levels.length; k++) {
                // AIS and RAISE are not in this figure
                List<TemperedComparison.Row> rows = TemperedComparison.temperedOnly(path, against.logZ(),
                        new int[] {finalSweeps}, seeds, chains, levels[k], roundSweeps, rounds, context.seed(),
                        ProgressListener.part(context.progress(), k, levels.length));
                for (TemperedComparison.Row r : rows) {
                    int m = METHODS.indexOf(r.method());
                    if (m >= 0) {
                        rmse[k][m] = r.rmse();
                    }
                }
            }
        }
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("log Z measured against", "mean of long AIS and RTS runs", against.label()));
        for (int m = 0; m < METHODS.size(); m++) {
            StringBuilder cells = new StringBuilder();
            for (int k = 0; k < levels.length; k++) {
                cells.append(k == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.3f", rmse[k][m]));
            }
            lines.add(new Line(String.format(Locale.ROOT, "%s: RMSE at K = %s", METHODS.get(m), join(levels)),
                    paperSays(METHODS.get(m)), cells.toString()));
        }
        String settings = String.format(Locale.ROOT, "%s from the data base rate, %d chains, K = %s linear levels, %d "
                + "initial round(s) from %d sweeps, %d final sweeps, %d seeds", context.cd25Name(problem), chains,
                join(levels), rounds, roundSweeps, finalSweeps, seeds);
        return new Outcome(settings, against, lines, claims(rmse, levels));
    }

    private static String paperSays(Method method) {
        return switch (method) {
            case RTS -> "flat once K is large enough";
            case TI_RB -> "approaches RTS as K grows";
            case TS -> "unstable at large K";
            default -> "-";
        };
    }

    private static String join(int[] levels) {
        List<String> parts = new ArrayList<>();
        for (int k : levels) {
            parts.add(String.valueOf(k));
        }
        return String.join("/", parts);
    }

    /**
     * The paper's claims (§4.3): RTS is not greatly affected by more temperatures once there are enough (here: its RMSE
     * at the largest K within 1.5 times its best over the two largest); TI-RB and RTS grow alike as K grows (their RMSEs
     * closer at the largest K than at the smallest); TS, without the Rao-Blackwellization, does no better than RTS at the
     * largest K.
     */
    private static Claims claims(double[][] rmse, int[] levels) {
        int last = levels.length - 1;
        int rts = METHODS.indexOf(Method.RTS);
        int tiRb = METHODS.indexOf(Method.TI_RB);
        int ts = METHODS.indexOf(Method.TS);
        double best = Math.min(rmse[last][rts], rmse[last - 1][rts]);
        return new Claims()
                .check(rmse[last][rts] <= 1.5 * best, String.format(Locale.ROOT, "RTS's RMSE at K = %d is %.3f against "
                        + "%.3f at K = %d (within 1.5 times counts as not greatly affected)", levels[last], rmse[last][rts],
                        rmse[last - 1][rts], levels[last - 1]))
                .check(Math.abs(rmse[last][rts] - rmse[last][tiRb]) < Math.abs(rmse[0][rts] - rmse[0][tiRb]),
                        String.format(Locale.ROOT, "RTS and TI-RB differ in RMSE by %.3f at K = %d against %.3f at K = %d",
                                Math.abs(rmse[last][rts] - rmse[last][tiRb]), levels[last],
                                Math.abs(rmse[0][rts] - rmse[0][tiRb]), levels[0]))
                .check(rmse[last][ts] >= rmse[last][rts], String.format(Locale.ROOT, "TS's RMSE at K = %d is %.3f "
                        + "against RTS's %.3f", levels[last], rmse[last][ts], rmse[last][rts]));
    }
}
