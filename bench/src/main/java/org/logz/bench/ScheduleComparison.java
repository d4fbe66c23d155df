package org.logz.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.UserException;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.Method;
import org.logz.estimate.ProgressListener;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.schedule.Varopt;

/**
 * Kiwaki's Table 1 as a table over many seeds, on a model with exact log Z: AIS with M chains and K steps
 * on linear, geometric, sigmoid, VAROPT and decelerated VAROPT schedules, and the adaptive SMC sampler with
 * M particles at conditional ESS targets ρ. Rows give the RMSE, bias and spread of log Ẑ, the mean final
 * ESS (AIS: of the importance weights; SMC: of the last reweighting), and the chain-transitions per run,
 * a VAROPT pilot's included; {@code rmseAtBudget} scales the RMSE to the AIS budget M·K by
 * {@code √(transitions / (M·K))}, the comparison at equal total sweeps.
 */
public final class ScheduleComparison {
    /** One schedule (or SMC target) on one model. */
    public record Row(String schedule, int chains, double transitions, double rmse, double bias, double sd,
                      double rmseAtBudget, double meanEss, int seeds, double seconds) {
    }

    private ScheduleComparison() {
    }

    /**
     * @param schedules AIS schedules: {@code linear}, {@code geometric[:βmin]}, {@code sigmoid[:δ]},
     *                  {@code varopt[:...]}; or {@code smc:ρ} for the adaptive SMC sampler
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
            for (int s = 0; s < seeds; s++) {
                long key = Philox.replicateSeed(seed, s);
                long started = System.nanoTime();
                if (spec.startsWith("smc:")) {
                    SmcResult r = new SmcSampler(new SmcSampler.Settings(chains, new SmcSampler.Steps.Adaptive(
                            target(spec), SmcSampler.MAX_STEPS), 0.5, ResamplingScheme.MULTINOMIAL, key, Method.SMC))
                            .run(path, ProgressListener.NONE);
                    errors[s] = r.logZ() - exactLogZ;
                    ess += r.trace().get(r.trace().size() - 1).ess() / seeds;
                    transitions += (double) r.transitions() / seeds;
                } else {
                    Schedule schedule;
                    long pilot = 0;
                    if (spec.startsWith("varopt")) {
                        Varopt.Plan plan = Varopt.plan(path, steps, Varopt.Settings.parse(spec), key);
                        schedule = plan.schedule();
                        pilot = plan.pilotTransitions();
                    } else {
                        schedule = Schedule.parse(spec, steps);
                    }
                    AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(chains,
                            schedule, key)).forward(path, ProgressListener.NONE);
                    errors[s] = r.logZ() - exactLogZ;
                    ess += r.ess() / seeds;
                    transitions += (double) (r.sweeps() + pilot) / seeds;
                }
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
            rows.add(new Row(spec, chains, transitions, rmse, mean, sd, rmse * Math.sqrt(transitions / budget), ess, seeds,
                    seconds));
        }
        return rows;
    }

    private static double target(String spec) {
        try {
            return Double.parseDouble(spec.substring(4));
        } catch (NumberFormatException e) {
            throw new UserException("'" + spec + "': write smc:ρ with ρ in (0, 1)");
        }
    }

    /** The rows as a Markdown table. */
    public static String markdown(String model, double exact, List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s (exact log Z %.4f)%n%n", model, exact));
        sb.append("| schedule | chains | transitions per run | RMSE | bias | sd | RMSE at the AIS budget | mean ESS | seeds "
                + "| seconds per run |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %,.0f | %.4f | %+.4f | %.4f | %.4f | %.1f | %d | %.2f |%n",
                    r.schedule(), r.chains(), r.transitions(), r.rmse(), r.bias(), r.sd(), r.rmseAtBudget(), r.meanEss(),
                    r.seeds(), r.seconds()));
        }
        return sb.toString();
    }
}
