package org.logz.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.comparison.SequentialComparison;
import org.logz.data.BinaryDataset;
import org.logz.data.Datasets;
import org.logz.estimate.Method;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

/**
 * The ARM paper (Fraccaro, Paquet &amp; Winther), §5.1 and Fig. 4, CD-25 panel: Resample-Move, ARM, ARM-anticipate and
 * ARM-reseed on the CD-25 MNIST RBM, visible units added in decreasing training-set variance, t = 10 Gibbs sweeps per
 * move, γ_thr = 0.7, i_max = 3 (2 for reseed, with 1500 sweeps per reseeded chain), Resample-Move at 1.2 R (the paper's
 * R = 1.2 × 10^4 beside ARM's 10^4), 50 runs of each, against the reference. logz runs the paper's smallest R = 100;
 * the scale is the fraction of the 50 runs.
 */
public final class ArmRbm implements Reproduction {
    private static final int PARTICLES = 100;
    private static final int RUNS = 50;

    @Override
    public String name() {
        return "arm-fig4";
    }

    @Override
    public String summary() {
        return "ARM paper, §5.1 and Fig. 4: the CD-25 MNIST RBM, Resample-Move, ARM, ARM-anticipate and ARM-reseed at "
                + "t = 10, γ_thr = 0.7, i_max = 3 (reseed 2), R = 100, 50 runs each, against the reference";
    }

    @Override
    public double defaultScale() {
        return 0.2;
    }

    @Override
    public String fullCost() {
        return "50 runs of each at R = 100: about 25 minutes on 2 cores; the paper's R up to 10^4 is a GPU's";
    }

    @Override
    public boolean onCd25() {
        return true;
    }

    @Override
    public Outcome run(Context context) {
        Problem problem = context.cd25();
        Reference against = context.against(problem, "reproduce arm-fig4");
        int particles = context.smoke() ? 10 : PARTICLES;
        int runs = context.scaled(RUNS, 2);
        int gibbsSteps = context.smoke() ? 1 : 10;
        int reseedSweeps = context.smoke() ? 10 : 1500;
        BinaryDataset mnist = Datasets.load("mnist");
        List<SequentialComparison.Entry> entries = List.of(
                SequentialComparison.Entry.parse("rm:" + Math.round(1.2 * particles)),
                SequentialComparison.Entry.parse("arm:" + particles),
                SequentialComparison.Entry.parse("arm-anticipate:" + particles),
                SequentialComparison.Entry.parse("arm-reseed:" + particles + ":2"));
        List<SequentialComparison.Row> rows = SequentialComparison.run(context.backend(), problem.rbm().orElseThrow(),
                against.logZ(), mnist, entries, runs, gibbsSteps, reseedSweeps, context.seed(), context.progress());
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("log Z measured against", "AIS-GA/AIS-MAS at 10^5 steps (Grosse et al.)", against.label()));
        for (SequentialComparison.Row r : rows) {
            lines.add(new Line(String.format(Locale.ROOT, "%s, R = %d: mean error, sd of log Ẑ, mean R_n, seconds",
                    r.method(), r.particles()), paperSays(r.method()), String.format(Locale.ROOT, "%+.3f, %.3f, %.0f, %.1f",
                    r.meanError(), r.sdLogZ(), r.meanParticles(), r.seconds())));
        }
        String settings = String.format(Locale.ROOT, "%s, visible units in decreasing MNIST variance, R = %d (RM %d), "
                + "t = %d, γ_thr = 0.7, i_max = 3 (reseed 2, %d sweeps per reseeded chain), residual resampling, %d runs "
                + "each", context.cd25Name(problem), particles, rows.get(0).particles(), gibbsSteps, reseedSweeps, runs);
        return new Outcome(settings, against, lines, claims(rows));
    }

    private static String paperSays(Method method) {
        return switch (method) {
            case RM -> "larger spread than ARM";
            case ARM -> "close to AIS";
            case ARM_ANTICIPATE -> "less spread than ARM";
            default -> "-";
        };
    }

    /**
     * The paper's claims (§5.1): ARM gets close to AIS's answer (here: its mean error within 0.5 of the reference), with
     * less spread than Resample-Move at 1.2 R, and ARM-anticipate with less spread than ARM.
     */
    private static Claims claims(List<SequentialComparison.Row> rows) {
        SequentialComparison.Row rm = rows.get(0);
        SequentialComparison.Row arm = rows.get(1);
        SequentialComparison.Row anticipate = rows.get(2);
        return new Claims()
                .check(Math.abs(arm.meanError()) <= 0.5, String.format(Locale.ROOT, "ARM's mean error is %+.3f (within "
                        + "0.5 counts as close)", arm.meanError()))
                .check(arm.sdLogZ() < rm.sdLogZ(), String.format(Locale.ROOT, "ARM's sd of log Ẑ is %.3f against "
                        + "Resample-Move's %.3f at %.2f× ARM's particle-steps", arm.sdLogZ(), rm.sdLogZ(),
                        rm.particleSteps() / (double) arm.particleSteps()))
                .check(anticipate.sdLogZ() < arm.sdLogZ(), String.format(Locale.ROOT, "ARM-anticipate's sd is %.3f "
                        + "against ARM's %.3f", anticipate.sdLogZ(), arm.sdLogZ()));
    }
}
