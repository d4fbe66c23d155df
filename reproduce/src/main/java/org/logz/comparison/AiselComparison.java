package org.logz.comparison;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.aisel.Aisel;
import org.logz.estimate.aisel.AiselResult;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.path.TemperedPath;
import org.logz.problem.Reference;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;

/**
 * The AISEL issue's table: on one latent-variable model, AISEL with M particles at several inner N (and the SMC
 * sampler with the exact likelihood where the model has one), over many seeds; per row the mean evidence, its
 * spread, the error against a reference (the GLMM's quadrature evidence) where there is one, the mean σ² of
 * log p̂_N, the mean steps, the inner draws and the seconds per run.
 */
public final class AiselComparison {
    /** One setting over the seeds; NaN where the model has no reference evidence (or no σ², for the exact likelihood). */
    public record Row(String likelihood, int particles, int inner, int seeds, double meanLogZ, double sd, double rmse,
                      double bias, double meanPowerPosterior, double variance, double steps, double innerDraws,
                      double seconds) {
    }

    private AiselComparison() {
    }

    /**
     * @param entries {@code exact}, or {@code P:N} with P the proposal (laplace, prior, bootstrap) and N the draws
     * @param reference the exact evidence, or empty
     */
    public static List<Row> run(ParticleBackend backend, LatentModel model, List<String> entries, int particles,
                                double essTarget, int moves, int seeds, long seed, OptionalDouble reference,
                                ProgressListener listener) {
        entries = check(entries, model);
        List<Row> rows = new ArrayList<>();
        long done = 0;
        for (String entry : entries) {
            Likelihood likelihood = parse(entry, model);
            double[] logZ = new double[seeds];
            double powerPosterior = 0;
            double variance = 0;
            double steps = 0;
            double draws = 0;
            double seconds = 0;
            for (int s = 0; s < seeds; s++) {
                var settings = new SmcSampler.Settings(particles, new SmcSampler.Steps.Adaptive(essTarget,
                        SmcSampler.MAX_STEPS), 0.5, ResamplingScheme.MULTINOMIAL, Philox.replicateSeed(seed, s), Method.SMC);
                long started = System.nanoTime();
                SmcResult r;
                if (likelihood instanceof Likelihood.Estimated e) {
                    AiselResult a = new Aisel(new Aisel.Settings(settings, new Aisel.Inner.Fixed(e.draws()), e.proposal(),
                            moves)).run(backend, model, ProgressListener.NONE);
                    r = a.smc();
                    variance += a.variance() / seeds;
                    draws += (double) a.innerDraws() / seeds;
                } else {
                    try (TemperedPath path = new TemperedPath(backend, new PseudoMarginal(model, likelihood), moves)) {
                        r = new SmcSampler(settings).run(path, ProgressListener.NONE);
                    }
                    variance = Double.NaN;
                }
                seconds += (System.nanoTime() - started) * 1e-9 / seeds;
                logZ[s] = r.logZ();
                powerPosterior += r.reading(Method.POWER_POSTERIOR).logZ() / seeds;
                steps += (double) r.stepCount() / seeds;
                listener.progress(++done, (long) entries.size() * seeds, Double.NaN, Double.NaN);
            }
            double mean = 0;
            for (double v : logZ) {
                mean += v / seeds;
            }
            double ss = 0;
            double squaredError = 0;
            for (double v : logZ) {
                ss += (v - mean) * (v - mean);
                squaredError += reference.isPresent() ? Math.pow(v - reference.getAsDouble(), 2) / seeds : Double.NaN;
            }
            int inner = likelihood instanceof Likelihood.Estimated e ? e.draws() : 0;
            rows.add(new Row(entry, particles, inner, seeds, mean, Math.sqrt(ss / (seeds - 1)), Math.sqrt(squaredError),
                    reference.isPresent() ? mean - reference.getAsDouble() : Double.NaN, powerPosterior, variance, steps,
                    draws, seconds));
        }
        return rows;
    }

    /** The default list for a model: the GLMM's exact likelihood and both proposals; the filter at three N for SV. */
    public static List<String> defaults(LatentModel model) {
        return model.hasExactLikelihood() ? List.of("exact", "prior:1", "prior:4", "prior:16", "prior:64", "laplace:1")
                : List.of("bootstrap:10", "bootstrap:40", "bootstrap:160");
    }

    /** The entries trimmed and parsed once (so a bad one is refused before any run), refusing empty and repeated ones. */
    public static List<String> check(List<String> entries, LatentModel model) {
        List<String> out = new ArrayList<>();
        for (String entry : entries) {
            String e = entry.trim();
            if (e.isEmpty()) {
                throw new UserException("bench aisel: an empty entry in --likelihoods; write exact or PROPOSAL:N, "
                        + "separated by semicolons");
            }
            parse(e, model);
            if (out.contains(e)) {
                throw new UserException("bench aisel: '" + e + "' appears twice in --likelihoods");
            }
            out.add(e);
        }
        if (out.isEmpty()) {
            throw new UserException("bench aisel: --likelihoods lists nothing to run");
        }
        return out;
    }

    private static Likelihood parse(String entry, LatentModel model) {
        String e = entry.trim().toLowerCase(Locale.ROOT);
        if (e.equals("exact")) {
            if (!model.hasExactLikelihood()) {
                throw new UserException("bench aisel: " + model.description() + " has no exact likelihood; drop 'exact'");
            }
            return new Likelihood.Exact();
        }
        String[] parts = e.split(":");
        try {
            if (parts.length == 2) {
                Likelihood.Proposal proposal = Likelihood.Proposal.parse(parts[0]);
                proposal.requireFits(model);
                return new Likelihood.Estimated(Integer.parseInt(parts[1]), proposal);
            }
        } catch (NumberFormatException ignored) {
            // the message below names the form
        }
        throw new UserException("bench aisel: '" + entry + "': write exact or PROPOSAL:N (laplace:4, prior:64, bootstrap:100)");
    }

    /** The rows as a Markdown table. */
    public static String markdown(String model, Optional<Reference> against, List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s (%s)%n%n", model,
                against.map(Reference::label).orElse("no exact or reference evidence")));
        sb.append("| likelihood | particles | mean log Ẑ | sd | RMSE | bias | mean power posterior | σ² of log p̂ | steps "
                + "| inner draws per run | seconds per run |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                + "| ---: | ---: |\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.4f | %.4f | %s | %s | %.4f | %s | %.1f | %s | %.2f |%n",
                    r.likelihood(), r.particles(), r.meanLogZ(), r.sd(), orDash(r.rmse(), "%.4f"), orDash(r.bias(), "%+.4f"),
                    r.meanPowerPosterior(), orDash(r.variance(), "%.3f"), r.steps(), orDash(r.innerDraws(), "%,.0f"),
                    r.seconds()));
        }
        return sb.toString();
    }

    private static String orDash(double v, String format) {
        return Double.isNaN(v) || v == 0 && format.contains(",") ? "–" : String.format(Locale.ROOT, format, v);
    }
}
