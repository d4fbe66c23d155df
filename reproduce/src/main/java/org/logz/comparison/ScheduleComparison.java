package org.logz.comparison;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.estimate.Method;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.path.TemperedPath;
import org.logz.problem.Reference;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.schedule.Gms13;
import org.logz.schedule.Varopt;

/**
 * Kiwaki's Table 1 as a table over many seeds, on a model with exact log Z (or a reference): AIS with M chains and K steps
 * on linear, geometric, sigmoid, VAROPT and decelerated VAROPT schedules, and the adaptive SMC sampler with
 * M particles at conditional ESS targets ρ. Rows give the RMSE, bias and spread of log Ẑ, the mean final
 * ESS (AIS: of the importance weights; SMC: of the last reweighting), and the chain-transitions per run,
 * a VAROPT pilot's included; {@code rmseAtBudget} scales the RMSE to the AIS budget M·K by
 * {@code √(transitions / (M·K))}, the comparison at equal total sweeps. A run whose estimate the CLI would
 * refuse (below a visited state's log f) is scored with that estimate and counted in {@code refused}: a
 * schedule that misses the mass is what the table is there to show.
 */
public final class ScheduleComparison {
    /** One schedule (or SMC target) on one model. */
    public record Row(String schedule, int chains, double transitions, double rmse, double bias, double sd,
                      double rmseAtBudget, double meanEss, int seeds, int refused, double seconds) {
    }

    private ScheduleComparison() {
    }

    /**
     * @param schedules AIS schedules: {@code linear}, {@code geometric[:βmin]}, {@code sigmoid[:δ]},
     *                  {@code varopt[:...]}, {@code gms13[:...]}; or {@code smc:ρ} for the adaptive SMC sampler
     */
    public static List<Row> run(TemperedPath path, double exactLogZ, List<String> schedules, int chains, int steps,
                                int seeds, long seed, ProgressListener listener) {
        List<Row> rows = new ArrayList<>();
        long done = 0;
        long budget = (long) chains * steps;
        for (String spec : schedules) {
            double[] errors = new double[seeds];
            double ess = 0;
            double transitions = 0;
            double seconds = 0;
            int refused = 0;
            for (int s = 0; s < seeds; s++) {
                long key = Philox.replicateSeed(seed, s);
                long started = System.nanoTime();
                Outcome o;
                try {
                    o = spec.startsWith("smc:") ? smc(path, spec, chains, key) : ais(path, spec, chains, steps, key);
                } catch (ImpossibleEstimateException e) {
                    o = new Outcome(e.logZ(), 0, 0);
                    refused++;
                }
                errors[s] = o.logZ() - exactLogZ;
                ess += o.ess();
                transitions += o.transitions();
                seconds += (System.nanoTime() - started) * 1e-9 / seeds;
                listener.progress(++done, (long) schedules.size() * seeds, Double.NaN, Double.NaN);
            }
            double mean = 0;
            double squares = 0;
            for (double e : errors) {
                mean += e / seeds;
                squares += e * e / seeds;
            }
            double rmse = Math.sqrt(squares);
            double sd = Math.sqrt(Math.max(0, squares - mean * mean) * seeds / (seeds - 1));
            int scored = seeds - refused;
            ess /= scored;
            transitions /= scored;
            rows.add(new Row(spec, chains, transitions, rmse, mean, sd, rmse * Math.sqrt(transitions / budget), ess, seeds,
                    refused, seconds));
        }
        return rows;
    }

    /**
     * One run's estimate, final ESS and chain-transitions; a refused run has neither ESS nor transitions (the
     * exception carries only the estimate), so the row averages them over the runs that were not refused.
     */
    private record Outcome(double logZ, double ess, double transitions) {
    }

    private static Outcome smc(TemperedPath path, String spec, int chains, long key) {
        SmcResult r = new SmcSampler(new SmcSampler.Settings(chains, new SmcSampler.Steps.Adaptive(target(spec),
                SmcSampler.MAX_STEPS), 0.5, ResamplingScheme.MULTINOMIAL, key, Method.SMC)).run(path, ProgressListener.NONE);
        return new Outcome(r.logZ(), r.trace().get(r.trace().size() - 1).ess(), r.transitions());
    }

    private static Outcome ais(TemperedPath path, String spec, int chains, int steps, long key) {
        Schedule schedule;
        long pilot = 0;
        if (spec.startsWith("varopt")) {
            Varopt.Plan plan = Varopt.plan(path, steps, Varopt.Settings.parse(spec), key);
            schedule = plan.schedule();
            pilot = plan.pilotTransitions();
        } else if (spec.startsWith("gms13")) {
            Gms13.Plan plan = Gms13.plan(path, steps, Gms13.Settings.parse(spec), key);
            schedule = plan.schedule();
            pilot = plan.pilotTransitions();
        } else {
            schedule = Schedule.parse(spec, Schedule.definesOwnSteps(spec) ? 0 : steps);
        }
        AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(chains, schedule, key))
                .forward(path, ProgressListener.NONE);
        return new Outcome(r.logZ(), r.ess(), r.sweeps() + pilot);
    }

    private static double target(String spec) {
        try {
            return Double.parseDouble(spec.substring(4));
        } catch (NumberFormatException e) {
            throw new UserException("'" + spec + "': write smc:ρ with ρ in (0, 1)");
        }
    }

    /** The rows as a Markdown table. */
    public static String markdown(String model, Reference against, List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s (%s)%n%n", model, against.label()));
        sb.append("| schedule | chains | transitions per run | RMSE | bias | sd | RMSE at the AIS budget | mean ESS | seeds "
                + "| refused | seconds per run |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            // every run refused: its transitions and ESS are unknown
            sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %.4f | %+.4f | %.4f | %s | %s | %d | %d | %.2f |%n",
                    r.schedule(), r.chains(), known(r.transitions(), "%,.0f"), r.rmse(), r.bias(), r.sd(),
                    known(r.rmseAtBudget(), "%.4f"), known(r.meanEss(), "%.1f"), r.seeds(), r.refused(), r.seconds()));
        }
        return sb.toString();
    }

    private static String known(double v, String format) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v);
    }
}
