package org.logz.comparison;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.SequentialResult;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmSequence;
import org.logz.path.SequentialPath;
import org.logz.path.UnitOrder;
import org.logz.problem.Reference;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;

/**
 * The ARM paper's comparison (§5.1, Figure 4) on a model with exact log Z: Resample-Move and the ARM
 * variants, each over many replicates, with the error of their mean log Z, the spread of log Z, the
 * work done (particle-steps) and the time, all from one run of this benchmark.
 */
public final class SequentialComparison {

    /** One configuration: a variant at a base number of particles, with its i_max. */
    public record Entry(ResampleMove.Variant variant, int particles, int maxGenerate) {
        /** {@code METHOD:R[:IMAX]}, e.g. {@code arm:100} or {@code arm-reseed:100:2}; i_max defaults to 3. */
        public static Entry parse(String spec) {
            String[] parts = spec.split(":");
            if (parts.length != 2 && parts.length != 3) {
                throw new UserException("'" + spec + "' is not METHOD:R[:IMAX] (e.g. arm:100)");
            }
            try {
                return new Entry(ResampleMove.Variant.parse(parts[0]), Integer.parseInt(parts[1].trim()),
                        parts.length == 3 ? Integer.parseInt(parts[2].trim()) : 3);
            } catch (NumberFormatException e) {
                throw new UserException("'" + spec + "': R and IMAX must be integers");
            }
        }
    }

    /**
     * A row of the table. {@code meanError} is the mean of {@code log Ẑ - log Z}; {@code sdLogZ} the
     * standard deviation of {@code log Ẑ} over replicates; steps and seconds are per run;
     * {@code leeWhiteley} the mean single-run standard error where the method has one.
     */
    public record Row(Method method, int particles, int maxGenerate, double meanParticles, long particleSteps, double meanError,
                      double sdLogZ, double logMeanError, double seconds, int replicates, OptionalDouble leeWhiteley) {
    }

    private SequentialComparison() {
    }

    public static List<Row> run(ParticleBackend backend, Rbm rbm, double exactLogZ, BinaryDataset data, List<Entry> entries,
                                int replicates, int gibbsSteps, int reseedSweeps, long seed, ProgressListener listener) {
        List<Row> rows = new ArrayList<>();
        UnitOrder order = UnitOrder.byVariance(data);
        long done = 0;
        long total = (long) entries.size() * replicates;
        try (SequentialPath path = new SequentialPath(backend, new RbmSequence(rbm, order, Optional.of(data)))) {
            for (Entry e : entries) {
                List<SequentialResult> runs = new ArrayList<>();
                for (int b = 0; b < replicates; b++) {
                    var settings = new ResampleMove.Settings(e.variant(), e.particles(), gibbsSteps, 0.7, 0.7, e.maxGenerate(),
                            ResamplingScheme.RESIDUAL, reseedSweeps, 100, Philox.replicateSeed(seed, b));
                    runs.add(new ResampleMove(settings).run(path, ProgressListener.NONE));
                    listener.progress(++done, total, Double.NaN, Double.NaN);
                }
                Replicates<SequentialResult> r = Replicates.of(runs);
                OptionalDouble lw = runs.get(0).stdErr().isPresent()
                        ? OptionalDouble.of(runs.stream().mapToDouble(x -> x.stdErr().getAsDouble()).average().orElseThrow())
                        : OptionalDouble.empty();
                rows.add(new Row(e.variant().method(), e.particles(), e.maxGenerate(),
                        runs.stream().mapToDouble(SequentialResult::meanParticles).average().orElseThrow(),
                        Math.round(runs.stream().mapToLong(SequentialResult::particleSteps).average().orElseThrow()),
                        r.meanLogZ() - exactLogZ, r.sdLogZ(), r.logZ() - exactLogZ,
                        runs.stream().mapToDouble(SequentialResult::seconds).average().orElseThrow(), replicates, lw));
            }
        }
        return rows;
    }

    /** The rows as a Markdown table, captioned with what the errors are measured against. */
    public static String markdown(Reference against, List<Row> rows) {
        StringBuilder sb = new StringBuilder("Errors against the " + against.label() + "\n\n"
                + "| method | R | i_max | mean R_n | particle-steps per run | mean error of log Ẑ | sd of log Ẑ | error of log mean Ẑ | seconds per run |\n"
                        + "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %.1f | %,d | %+.3f | %.3f | %+.3f | %.1f |%n", r.method(),
                    r.particles(), r.method() == Method.RM ? "–" : String.valueOf(r.maxGenerate()), r.meanParticles(), r.particleSteps(), r.meanError(), r.sdLogZ(), r.logMeanError(),
                    r.seconds()));
        }
        return sb.toString();
    }
}
