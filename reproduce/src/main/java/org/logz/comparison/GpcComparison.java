package org.logz.comparison;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.Estimate;
import org.logz.estimate.Replicates;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.ep.CorrectedEp;
import org.logz.estimate.ep.ProbitEp;
import org.logz.model.GpClassification;
import org.logz.model.gpc.TemperedGpc;
import org.logz.options.SequentialOptions;
import org.logz.path.GpcSequence;
import org.logz.path.SequentialPath;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.problem.Reference;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;

/**
 * The ARM paper's Figure 2 as a table (§4): the evidence of a GP classifier by Resample-Move, ARM, AIS
 * from the prior and AIS from EP's q (eq. 11), each over replicates: log of the mean Ẑ and the spread of
 * log Ẑ against particle-steps and seconds per run, with EP's log Z for reference, from one run.
 * Sequential runs use the paper's settings (one slice-sampled Gibbs sweep per move, γ_thr = 0.7 (§3.2), residual
 * resampling below 0.9 R, i_max = 50 (§4.2), cases in random:1 order); AIS runs one elliptical slice
 * transition per step.
 */
public final class GpcComparison {
    /** The methods of the figure. */
    public enum Kind {
        RM("rm"), ARM("arm"), AIS_PRIOR("ais-prior"), AIS_EP("ais-ep");

        final String name;

        Kind(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }

        boolean annealing() {
            return this == AIS_PRIOR || this == AIS_EP;
        }
    }

    /**
     * One configuration: R particles for rm and arm; chains, steps and a schedule for AIS.
     */
    public record Entry(Kind kind, int size, int steps, String schedule) {
        /** {@code rm:R}, {@code arm:R}, {@code ais-prior:C:K[:SCHEDULE]} or {@code ais-ep:C:K[:SCHEDULE]}. */
        public static Entry parse(String spec) {
            String[] parts = spec.trim().split(":", 4);
            Kind kind = null;
            for (Kind k : Kind.values()) {
                if (k.name.equals(parts[0].trim().toLowerCase(Locale.ROOT))) {
                    kind = k;
                }
            }
            if (kind == null) {
                throw new UserException("'" + spec + "': the method must be rm, arm, ais-prior or ais-ep");
            }
            if (kind.annealing() ? parts.length < 3 : parts.length != 2) {
                throw new UserException("'" + spec + "' is not " + (kind.annealing() ? kind + ":CHAINS:STEPS[:SCHEDULE]"
                        : kind + ":R"));
            }
            try {
                int size = Integer.parseInt(parts[1].trim());
                int steps = kind.annealing() ? Integer.parseInt(parts[2].trim()) : 0;
                String schedule = parts.length == 4 ? parts[3].trim()
                        : kind == Kind.AIS_PRIOR ? "geometric:1e-9" : "geometric";
                if (size < 2 || (kind.annealing() && steps < 1)) {
                    throw new UserException("'" + spec + "': at least 2 particles (chains) and 1 step");
                }
                if (kind.annealing()) {
                    Schedule.parse(schedule, steps);
                }
                return new Entry(kind, size, steps, schedule);
            } catch (NumberFormatException e) {
                throw new UserException("'" + spec + "': sizes and steps must be integers");
            }
        }
    }

    /**
     * A row: {@code logMeanZ} is the log of the mean Ẑ over replicates (the figure's left panel),
     * {@code sdLogZ} the standard deviation of log Ẑ (its right panel); steps and seconds are per run,
     * {@code warned} counts runs that raised a warning of their own.
     */
    public record Row(String method, int size, int steps, String schedule, double meanParticles, long particleSteps,
                      double seconds, double logMeanZ, double sdLogZ, double stdErr, int replicates, int warned) {
    }

    /** The table, EP's reference and EP with Opper, Paquet &amp; Winther's correction (the paper's corrected EP). */
    public record Table(double epLogZ, double epSeconds, double correctedEpLogZ, List<Row> rows) {
    }

    private GpcComparison() {
    }

    public static Table run(ParticleBackend backend, GpClassification model, List<Entry> entries, int replicates, long seed,
                            ProgressListener listener) {
        ProbitEp.Result ep = ProbitEp.run(model, ProbitEp.Settings.defaults());
        TemperedGpc fromEp = TemperedGpc.fromEp(model, ep.siteTau(), ep.siteNu());
        TemperedGpc fromPrior = TemperedGpc.fromPrior(model);
        List<Row> rows = new ArrayList<>();
        long done = 0;
        long total = (long) entries.size() * replicates;
        for (Entry e : entries) {
            List<Estimate> runs = new ArrayList<>();
            double particles = 0;
            long steps = 0;
            for (int b = 0; b < replicates; b++) {
                long replicateSeed = Philox.replicateSeed(seed, b);
                if (e.kind().annealing()) {
                    var settings = new AnnealedImportanceSampling.Settings(e.size(), Schedule.parse(e.schedule(), e.steps()),
                            replicateSeed);
                    try (TemperedPath path = new TemperedPath(backend, e.kind() == Kind.AIS_EP ? fromEp : fromPrior)) {
                        var r = new AnnealedImportanceSampling(settings).forward(path, ProgressListener.NONE);
                        runs.add(r);
                        particles += e.size();
                        steps += (long) e.size() * e.steps();
                    }
                } else {
                    var settings = new ResampleMove.Settings(e.kind() == Kind.RM ? ResampleMove.Variant.RM
                            : ResampleMove.Variant.ARM, e.size(), SequentialOptions.GPC_GIBBS_STEPS,
                            SequentialOptions.GAMMA_THRESHOLD.defaultValue(), SequentialOptions.GPC_ESS_THRESHOLD,
                            SequentialOptions.GPC_MAX_GENERATE, ResamplingScheme.RESIDUAL, 1, 100,
                            replicateSeed);
                    try (SequentialPath path = new SequentialPath(backend, new GpcSequence(model,
                            UnitOrder.random(model.size(), 1)))) {
                        var r = new ResampleMove(settings).run(path, ProgressListener.NONE);
                        runs.add(r);
                        particles += r.meanParticles();
                        steps += r.particleSteps();
                    }
                }
                listener.progress(++done, total, Double.NaN, Double.NaN);
            }
            Replicates<Estimate> r = Replicates.of(runs);
            rows.add(new Row(e.kind().toString(), e.size(), e.steps(), e.kind().annealing() ? e.schedule() : null,
                    particles / replicates, steps / replicates,
                    runs.stream().mapToDouble(Estimate::seconds).average().orElseThrow(), r.logZ(), r.sdLogZ(), r.stdErr(),
                    replicates, (int) runs.stream().filter(x -> !x.warnings().isEmpty()).count()));
        }
        return new Table(ep.logZ(), ep.seconds(), CorrectedEp.of(model, ep).logZ(), rows);
    }

    /**
     * The rows as a Markdown table, EP's log Z and the corrected EP's last; where {@code against} is given (the exact
     * log Z of a tiny problem, or {@code --reference}), captioned with it and with a column of each log mean Ẑ's
     * difference from it.
     */
    public static String markdown(Table t, Optional<Reference> against) {
        String extra = against.map(a -> " − " + a.kind() + " |").orElse("");
        String extraRule = against.isPresent() ? " ---: |" : "";
        StringBuilder sb = new StringBuilder(against.map(a -> "Measured against " + a.label() + "\n\n").orElse(""));
        sb.append("| method | R or chains | steps (schedule) | mean R_n | particle-steps per run | seconds per run "
                + "| log mean Ẑ | ± SE | sd of log Ẑ | replicates | warned |").append(extra).append("\n")
                .append("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |").append(extraRule)
                .append("\n");
        for (Row r : t.rows()) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %.1f | %,d | %.2f | %.3f | %.3f | %.3f | %d | %d |",
                    r.method(), r.size(), r.schedule() == null ? "–" : r.steps() + " (" + r.schedule() + ")",
                    r.meanParticles(), r.particleSteps(), r.seconds(), r.logMeanZ(), r.stdErr(), r.sdLogZ(), r.replicates(),
                    r.warned())).append(difference(r.logMeanZ(), against)).append("\n");
        }
        sb.append(String.format(Locale.ROOT, "| ep | – | – | – | – | %.2f | %.3f | – | – | – | – |", t.epSeconds(),
                t.epLogZ())).append(difference(t.epLogZ(), against)).append("\n");
        sb.append(String.format(Locale.ROOT, "| ep-corrected | – | – | – | – | %.2f | %.3f | – | – | – | – |",
                t.epSeconds(), t.correctedEpLogZ())).append(difference(t.correctedEpLogZ(), against)).append("\n");
        return sb.toString();
    }

    private static String difference(double logZ, Optional<Reference> against) {
        return against.map(a -> String.format(Locale.ROOT, " %+.3f |", logZ - a.logZ())).orElse("");
    }
}
