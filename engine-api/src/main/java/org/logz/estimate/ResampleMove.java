package org.logz.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.backend.Resampler;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.memory.Footprint;
import org.logz.path.SequentialPath;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;

/**
 * Resample-Move (Gilks &amp; Berzuini 2001; Fraccaro, Paquet &amp; Winther, Algorithm 1) and Adaptive
 * Resample-Move (Algorithm 2) with the two generators of §3.2, on any {@link SequentialPath}.
 *
 * <p>Iteration n adds variable n: move the R particles (t transitions leaving {@code p_n}
 * invariant), smooth ({@code w_{n+1} = W(x) w̃_n}, eq. 3), add
 * {@code log Σ w_{n+1} - log Σ w̃_n} to log Z (eq. 5), resample, augment. Resample-Move resamples
 * when ESS &lt; {@code essThreshold}·R. ARM measures {@code γ = ESS/R_n} and, while
 * {@code γ < γ_thr} (at most {@code i_max} times), appends a batch of new particles that target
 * {@code p_n} (Proposition 1) and smooths it; it then resamples R particles whenever it generated
 * or γ stayed low (Algorithm 2, line 7). Batches:
 * <ul>
 *   <li>ARM: the latest R particles copied and moved on; every batch carries the same mass;</li>
 *   <li>ARM-anticipate: particle r of the current set split into {@code max(1, ⌊R w̃_{n+1}^r⌋)}
 *       copies sharing its weight, then moved; again the batch carries the mass of the current set;</li>
 *   <li>ARM-reseed: {@code S = max((1 - γ/γ_thr) R, 100)} fresh particles from chains started at
 *       random data examples (G transitions each), each carrying the mean weight of the current set,
 *       so the batch's mass is proportional to S.</li>
 * </ul>
 * Storage is sized once for the largest set a run can reach. Philox steps are allocated from one
 * counter, so runs are reproducible and thread-count independent.
 */
public final class ResampleMove {

    /** The algorithm: Resample-Move or one of the ARM variants. */
    public enum Variant {
        RM(Method.RM), ARM(Method.ARM), ANTICIPATE(Method.ARM_ANTICIPATE), RESEED(Method.ARM_RESEED);

        private final Method method;

        Variant(Method method) {
            this.method = method;
        }

        /** The method a result of this variant names. */
        public Method method() {
            return method;
        }

        /** The name on the command line. */
        public String cliName() {
            return method.toString();
        }

        public static Variant parse(String name) {
            for (Variant v : values()) {
                if (v.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                    return v;
                }
            }
            throw new UserException("unknown method '" + name + "'; use rm, arm, arm-anticipate or arm-reseed");
        }
    }

    /**
     * Defaults from the paper's RBM experiments (§5.1): t = 10, γ_thr = 0.7, i_max = 3, residual
     * resampling, resampling threshold 0.7·R for Resample-Move, G = 1500 and at least 100 particles
     * for reseeding.
     *
     * @param variant        algorithm
     * @param particles      base number of particles R (at least 2)
     * @param gibbsSteps     transitions t per move step
     * @param gammaThreshold γ_thr of ARM's generate loop
     * @param essThreshold   Resample-Move resamples when ESS &lt; essThreshold·R
     * @param maxGenerate    i_max, most batches ARM appends in one iteration
     * @param scheme         resampling scheme
     * @param reseedSweeps   G, transitions of each reseeding chain
     * @param reseedMinimum  least number of reseeded particles per batch
     * @param seed           Philox key
     */
    public record Settings(Variant variant, int particles, int gibbsSteps, double gammaThreshold, double essThreshold,
                           int maxGenerate, ResamplingScheme scheme, int reseedSweeps, int reseedMinimum, long seed) {
        public Settings {
            if (particles < 2) {
                throw new UserException("Resample-Move needs at least 2 particles, got " + particles);
            }
            if (gibbsSteps < 0) {
                throw new UserException("Gibbs steps must be non-negative, got " + gibbsSteps);
            }
            if (!(gammaThreshold > 0 && gammaThreshold <= 1)) {
                throw new UserException("γ threshold must lie in (0, 1], got " + gammaThreshold);
            }
            if (!(essThreshold >= 0 && essThreshold <= 1)) {
                throw new UserException("ESS threshold must lie in [0, 1], got " + essThreshold);
            }
            if (maxGenerate < 0) {
                throw new UserException("maximum generate iterations must be non-negative, got " + maxGenerate);
            }
            if (reseedSweeps < 0 || reseedMinimum < 1) {
                throw new UserException("reseeding needs non-negative sweeps and a positive minimum");
            }
            if (variant == Variant.RESEED && reseedSweeps < 1) {
                throw new UserException("arm-reseed starts new particles from data points, which are not draws of the "
                        + "target: they need Gibbs sweeps (G ≥ 1, the paper uses 1500) before they join, got 0");
            }
            if ((long) particles * (1 + 2L * maxGenerate) + reseedMinimum > Integer.MAX_VALUE / 2) {
                throw new UserException(particles + " particles with " + maxGenerate
                        + " generate iterations exceed the largest particle set logz can hold");
            }
        }

        /** The paper's defaults for a variant. */
        public static Settings defaults(Variant variant, int particles, long seed) {
            return new Settings(variant, particles, 10, 0.7, 0.7, 3, ResamplingScheme.RESIDUAL, 1500, 100, seed);
        }

        /** These settings under another Philox key (an island's, a replicate's). */
        public Settings withSeed(long other) {
            return new Settings(variant, particles, gibbsSteps, gammaThreshold, essThreshold, maxGenerate, scheme,
                    reseedSweeps, reseedMinimum, other);
        }

        /** Largest batch one generate iteration appends. */
        int batchCapacity() {
            return switch (variant) {
                case RM -> 0;
                case ARM -> particles;
                case ANTICIPATE -> Resampling.splitCapacity(particles, particles);
                case RESEED -> Math.max(particles, reseedMinimum);
            };
        }
    }

    private final Settings settings;

    public ResampleMove(Settings settings) {
        this.settings = settings;
    }

    /**
     * What a run allocates: storage for the largest particle set it can reach (and the rearranging room
     * of {@link SequentialPath#particles}), the weight vectors, and the per-variable trace on the heap.
     */
    public Footprint footprint(SequentialPath path) {
        long capacity = (long) settings.particles() + (long) settings.maxGenerate() * settings.batchCapacity();
        long place = Math.max(settings.particles(), settings.batchCapacity());
        return new Footprint(Footprint.times(capacity + place, path.bytesPerParticle()), Footprint.times(capacity, 40),
                Footprint.times(path.length(), 64) + Footprint.times(settings.particles(), 16));
    }

    public SequentialResult run(SequentialPath path, ProgressListener listener) {
        if (settings.variant() == Variant.RESEED && !path.canReseed()) {
            throw new UserException("arm-reseed needs a data set to start its chains from (--data)");
        }
        path.backend().require(footprint(path), settings.variant().cliName() + " with " + settings.particles()
                + " particles on " + path.description());
        // every unit after the first is entered (one step) and moved (t steps) at least once
        long leastSteps = (path.length() - 1L) * (1L + settings.gibbsSteps());
        if (leastSteps > Integer.MAX_VALUE) {
            throw new UserException(path.length() + " units × " + settings.gibbsSteps() + " Gibbs steps exceed the "
                    + "random streams' 2^31 step indices; use fewer Gibbs steps");
        }
        long started = System.nanoTime();
        try (Run run = new Run(path)) {
            return run.execute(listener, started);
        }
    }

    /** Buffers and counters of one run. */
    private final class Run implements AutoCloseable {
        private final SequentialPath path;
        private final ParticleBackend backend;
        private final int r;
        private final SequentialPath.Particles particles;
        /** Log weights each particle carries into the iteration (w̃_n, unnormalized). */
        private final ParticleVector carried;
        /** Carried weights times the smoothing weights (w_{n+1}). */
        private final ParticleVector smoothed;
        private final IndexVector ancestors;
        private final Resampler resampler;
        /** ARM-anticipate's copy lists. */
        private final IndexVector splitIndices;
        private final ParticleVector splitCarried;
        /** Lineages for the Lee-Whiteley variance estimate (multinomial Resample-Move only), else null. */
        private final Lineages lineages;
        private int step = 1;
        private long particleSteps;
        private int resamplings;

        Run(SequentialPath path) {
            this.path = path;
            this.backend = path.backend();
            this.r = settings.particles();
            int batch = settings.batchCapacity();
            int capacity = r + settings.maxGenerate() * batch;
            int place = Math.max(r, batch);
            this.particles = path.particles(capacity, place);
            this.carried = backend.vector(capacity);
            this.smoothed = backend.vector(capacity);
            this.ancestors = backend.indices(place);
            this.resampler = backend.resampler(settings.scheme());
            boolean anticipate = settings.variant() == Variant.ANTICIPATE;
            this.splitIndices = anticipate ? backend.indices(batch) : null;
            this.splitCarried = anticipate ? backend.vector(batch) : null;
            this.lineages = settings.variant() == Variant.RM && settings.scheme() == ResamplingScheme.MULTINOMIAL
                    ? new Lineages(backend, r) : null;
        }

        SequentialResult execute(ProgressListener listener, long started) {
            long bytesAtStart = backend.transferredBytes();
            int n = path.length();
            // Philox step 0 is the start's alone: the counter hands out steps from 1
            particles.start(0, r, settings.seed(), 0);
            backend.fill(carried, 0, r, 0.0);
            double logZ = path.logZ0();
            List<SequentialTracePoint> trace = new ArrayList<>(n);
            long particleSum = 0;
            WeightSummary last = null;
            OptionalDouble stdErr = OptionalDouble.empty();
            int finalTotal = r;
            for (int unit = 0; unit < n; unit++) {
                long bytes = backend.transferredBytes();
                move(unit, 0, r);
                smooth(unit, 0, r);
                WeightSummary in = backend.summarize(carried, 0, r);
                WeightSummary out = backend.summarize(smoothed, 0, r);
                int total = r;
                boolean generated = false;
                for (int i = 0; settings.variant() != Variant.RM && gamma(out, total) < settings.gammaThreshold()
                        && i < settings.maxGenerate(); i++) {
                    total += generate(unit, total, in, out);
                    generated = true;
                    out = backend.summarize(smoothed, 0, total);
                }
                double carriedMass = generated ? backend.summarize(carried, 0, total).logSum() : in.logSum();
                double increment = out.logSum() - carriedMass;
                if (!Double.isFinite(increment)) {
                    throw new EstimationException(settings.variant().cliName() + " on " + path.description()
                            + ": the smoothing weights of " + path.model().variableName() + " " + unit + " are degenerate "
                            + "(increment " + increment + ")");
                }
                logZ += increment;
                boolean lastUnit = unit == n - 1;
                if (lastUnit && lineages != null) {
                    stdErr = lineages.relativeStdErr(smoothed);
                }
                finalTotal = total;
                boolean resample = !lastUnit && (settings.variant() == Variant.RM
                        ? out.ess() < settings.essThreshold() * r
                        : generated || gamma(out, total) < settings.gammaThreshold());
                if (resample) {
                    resample(total);
                } else if (!lastUnit) {
                    backend.copy(smoothed, 0, carried, 0, r);
                }
                if (!lastUnit) {
                    particles.augment(unit, 0, r, settings.seed(), steps(1));
                }
                particleSum += total;
                trace.add(new SequentialTracePoint(unit, total, out.ess(), gamma(out, total), resample, increment,
                        backend.transferredBytes() - bytes));
                listener.progress(unit + 1, n, logZ, out.ess());
                last = out;
            }
            // after the trace: the particles' log densities are downloaded once per run, not per iteration
            OptionalDouble bound = visitedBound(n - 1, finalTotal);
            double seconds = (System.nanoTime() - started) * 1e-9;
            return new SequentialResult(settings.variant().method(), backend.name(), path.description(), logZ, stdErr,
                    last.ess(), r, 1, path.logZ0(), particleSteps, resamplings, (double) particleSum / n, settings.seed(),
                    seconds, trace, backend.transferredBytes() - bytesAtStart, bound, reseedLag);
        }

        /**
         * Where Z sums over states: {@code max_r log Σ_{x_N} f(x_[N-1], x_N)} over the final particles, the
         * last variable summed out by its smoothing weight; each term is at most Z.
         */
        private OptionalDouble visitedBound(int lastUnit, int total) {
            if (!path.discrete()) {
                return OptionalDouble.empty();
            }
            try (ParticleVector logF = backend.vector(total)) {
                particles.logDensity(total, logF);
                particles.smooth(lastUnit, 0, total, logF);
                return Arrays.stream(backend.download(logF, total)).max();
            }
        }

        /** The largest |z| of {@link #reseedZ} over the run's reseeding batches; 0 without one. */
        private double reseedLag;

        private double gamma(WeightSummary s, int total) {
            return s.ess() / total;
        }

        /** Moves rows [first, first + count) t transitions at the current unit (none before the first unit). */
        private void move(int unit, int first, int count) {
            if (unit > 0 && settings.gibbsSteps() > 0) {
                particles.move(unit, first, count, settings.gibbsSteps(), settings.seed(), steps(settings.gibbsSteps()));
                particleSteps += (long) count * settings.gibbsSteps();
            }
        }

        /**
         * How far fresh particles in rows [total, total + size) sit from the current set: the z-score of their mean
         * log f against the mean of rows [0, total) weighted by their carried weights, both samples of the same
         * distribution p_unit when the reseeding chains have mixed and the set has kept its modes. Chains too short to
         * forget the data they start from keep its high log f (the hostile review's reseed_short: 50 sweeps on a cold
         * 64×16 RBM, 5 to 16 nats high with ESS 90% and no warning; with 1000 particles now 33 nats high at z = 36).
         * One download of the set's log densities and weights per batch, small beside its reseeding sweeps.
         */
        private double reseedZ(int total, int size) {
            double[] f;
            try (ParticleVector logF = backend.vector(total + size)) {
                particles.logDensity(total + size, logF);
                f = backend.download(logF, total + size);
            }
            double[] w = backend.download(carried, total);
            WeightedMoments set = WeightedMoments.of(w, f, 0, 1, total);
            WeightedMoments fresh = WeightedMoments.of(new double[size], f, total, 1, size);
            double variance = set.variance() / WeightSummary.of(w).ess() + fresh.variance() / size;
            return variance > 0 ? (fresh.mean() - set.mean()) / Math.sqrt(variance) : 0;
        }

        /** smoothed = carried + log W for rows [first, first + count). */
        private void smooth(int unit, int first, int count) {
            backend.copy(carried, first, smoothed, first, count);
            particles.smooth(unit, first, count, smoothed);
        }

        /**
         * Appends one batch at rows [total, ...), moves and smooths it; returns its size.
         *
         * @param in  summary of the current set's carried weights
         * @param out summary of the whole set's smoothed weights so far
         */
        private int generate(int unit, int total, WeightSummary in, WeightSummary out) {
            int size;
            switch (settings.variant()) {
                case ARM -> {
                    size = r;
                    // continue the chains of the latest batch
                    particles.copy(total - r, total, r);
                    backend.copy(carried, 0, carried, total, r);
                    move(unit, total, size);
                }
                case ANTICIPATE -> {
                    size = backend.split(smoothed, r, r, carried, splitIndices, splitCarried);
                    particles.place(splitIndices, size, total);
                    backend.copy(splitCarried, 0, carried, total, size);
                    move(unit, total, size);
                }
                case RESEED -> {
                    double deficit = 1.0 - gamma(out, total) / settings.gammaThreshold();
                    size = Math.max((int) Math.ceil(deficit * r), settings.reseedMinimum());
                    particles.reseed(unit, total, size, settings.reseedSweeps(), settings.seed(),
                            steps(1 + settings.reseedSweeps()));
                    particleSteps += (long) size * settings.reseedSweeps();
                    reseedLag = Math.max(reseedLag, Math.abs(reseedZ(total, size)));
                    // each fresh particle carries the current set's mean weight
                    backend.fill(carried, total, size, in.logMean());
                }
                default -> throw new IllegalStateException("Resample-Move does not generate");
            }
            smooth(unit, total, size);
            return size;
        }

        /**
         * The first of {@code count} Philox step indices for the next operation. Refuses to number past
         * 2^31: a wrapped index would reuse another operation's random numbers.
         */
        private int steps(int count) {
            if ((long) step + count > Integer.MAX_VALUE) {
                throw new UserException("the run's transitions exceed the random streams' 2^31 step indices; use fewer "
                        + "Gibbs steps, reseeding sweeps or generated batches");
            }
            int first = step;
            step += count;
            return first;
        }

        private void resample(int total) {
            resampler.ancestors(smoothed, total, r, settings.seed(), steps(1), ancestors);
            particles.place(ancestors, r, 0);
            backend.fill(carried, 0, r, 0.0);
            if (lineages != null) {
                lineages.resampled(ancestors);
            }
            resamplings++;
        }

        @Override
        public void close() {
            particles.close();
            carried.close();
            smoothed.close();
            ancestors.close();
            if (splitIndices != null) {
                splitIndices.close();
                splitCarried.close();
            }
            if (lineages != null) {
                lineages.close();
            }
        }
    }
}
