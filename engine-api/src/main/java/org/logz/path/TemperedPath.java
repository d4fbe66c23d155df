package org.logz.path;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.Betas;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.TemperedModel;

/**
 * A tempered path {@code p_β(x) ∝ f_β(x)}, β ∈ [0, 1], from a base with known normalizer to the
 * target (DESIGN §2), over any {@link TemperedModel} whose kernel the backend has. Chains live on the
 * backend; estimators drive them with whole-batch calls and never see particle values. AIS, reverse
 * AIS, BAR, TI and RTS are written once against this class.
 *
 * <p>Every step of the path runs {@link #transitionsPerStep()} kernel transitions (Habeck's
 * "equilibration steps"). Path step s owns Philox steps {@code s·n .. s·n + n - 1}, n the transitions
 * per step, so estimators count steps without knowing n, and n = 1 keeps the kernel's own numbering.
 */
public final class TemperedPath implements AutoCloseable {
    /** Largest number of transitions per step. */
    public static final int MAX_TRANSITIONS_PER_STEP = 100_000;

    private final ParticleBackend backend;
    private final TemperedModel model;
    private final int transitionsPerStep;
    private final TemperedKernel kernel;

    /** The path with one transition per step. */
    public TemperedPath(ParticleBackend backend, TemperedModel model) {
        this(backend, model, 1);
    }

    /** Binds the model's kernel on {@code backend} ({@link Kernels#tempered}). */
    public TemperedPath(ParticleBackend backend, TemperedModel model, int transitionsPerStep) {
        if (transitionsPerStep < 1 || transitionsPerStep > MAX_TRANSITIONS_PER_STEP) {
            throw new UserException("transitions per step must be an integer from 1 to " + MAX_TRANSITIONS_PER_STEP + ", got "
                    + transitionsPerStep);
        }
        this.backend = backend;
        this.model = model;
        this.transitionsPerStep = transitionsPerStep;
        this.kernel = Kernels.tempered(backend, model);
    }

    public TemperedModel model() {
        return model;
    }

    /** What the path anneals between and how many transitions a step runs, for result files. */
    public String description() {
        return model.description(transitionsPerStep);
    }

    public ParticleBackend backend() {
        return backend;
    }

    public int transitionsPerStep() {
        return transitionsPerStep;
    }

    public int dimension() {
        return model.dimension();
    }

    public double logZ0() {
        return model.logZ0();
    }

    public boolean discrete() {
        return model.discrete();
    }

    public long bytesPerChain() {
        return model.bytesPerChain();
    }

    public Optional<float[]> exactTargetSamples(int count, long seed) {
        return model.exactTargetSamples(count, seed);
    }

    /**
     * Where the model is {@link TemperedModel#discrete()}: a lower bound on log Z from the chains'
     * current states (the model's {@link TemperedModel#stateBound}, else their largest {@code log f_1});
     * empty otherwise.
     */
    public OptionalDouble visitedBound(Chains chains) {
        if (!model.discrete()) {
            return OptionalDouble.empty();
        }
        OptionalDouble bound = model.stateBound(chains.states(), chains.count());
        if (bound.isPresent()) {
            return bound;
        }
        try (ParticleVector logF = backend.vector(chains.count())) {
            chains.logDensity(1.0, logF);
            return Arrays.stream(backend.download(logF, chains.count())).max();
        }
    }

    /** Allocates {@code count} chains on the backend (states zero until sampled or loaded). */
    public Chains chains(int count) {
        return new Chains(0, count);
    }

    /**
     * Allocates chains {@code firstChain .. firstChain + count - 1} of a larger run: row r draws from chain
     * {@code firstChain + r}'s random streams ({@link TemperedKernel}), so a run split into such batches draws
     * what the whole run draws.
     */
    public Chains chains(int firstChain, int count) {
        if (firstChain < 0 || (long) firstChain + count > Integer.MAX_VALUE) {
            throw new UserException("chains " + firstChain + " to " + ((long) firstChain + count - 1)
                    + " outside the random streams' chain indices");
        }
        return new Chains(firstChain, count);
    }

    /** Frees the kernel's device buffers; closing twice is harmless. */
    @Override
    public void close() {
        kernel.close();
    }

    /**
     * Refuses, before a run starts, a run of {@code steps} path steps whose Philox step numbers
     * ({@code steps × transitionsPerStep}) would not fit the streams' 2^31 step indices.
     *
     * @throws UserException naming the limit
     */
    public void requireSteps(long steps) {
        if (steps < 0 || steps * transitionsPerStep > Integer.MAX_VALUE) {
            throw new UserException(steps + " steps × " + transitionsPerStep + " transitions per step exceed the random "
                    + "streams' 2^31 step indices; use fewer steps, burn-in sweeps or transitions per step");
        }
    }

    /** The first Philox step of path step {@code step}, refused when the numbering would overflow. */
    private int philoxStep(int step, int steps) {
        long last = ((long) step + Math.max(steps, 1)) * transitionsPerStep - 1;
        if (step < 0 || last > Integer.MAX_VALUE) {
            throw new UserException("steps × transitions per step exceed the random streams' 2^31 step indices ("
                    + step + " + " + steps + " steps × " + transitionsPerStep + ")");
        }
        return step * transitionsPerStep;
    }

    /** A batch of chains on the backend, the first {@code count} rows of one matrix. Methods act on all of them. */
    public final class Chains implements AutoCloseable {
        private final int first;
        private final int count;
        private ParticleMatrix x;
        /** The other buffer of {@link #resample}, allocated on first use. */
        private ParticleMatrix spare;

        private Chains(int first, int count) {
            this.first = first;
            this.count = count;
            this.x = backend.matrix(count, model.dimension());
        }

        public int count() {
            return count;
        }

        /** Exact draw from the base {@code p_0}. Uses path step {@code step}. */
        public void sampleBase(long seed, int step) {
            kernel.sampleBase(x, count, seed, philoxStep(step, 1), first);
        }

        /** Replaces the states with {@code count × dimension} row-major values from the host. */
        public void load(float[] states) {
            if (states.length != (long) count * x.cols()) {
                throw new UserException("expected " + count + "×" + x.cols() + " state values, got "
                        + states.length);
            }
            backend.upload(states, count, x);
        }

        /**
         * {@code logW += log f_to(x) - log f_from(x)}, then, if {@code transition}, the step's transitions,
         * which leave {@code p_to} invariant. Modifies {@code logW} and the states. Uses path step {@code step}.
         */
        public void anneal(double from, double to, ParticleVector logW, boolean transition, long seed, int step) {
            kernel.anneal(x, count, from, to, logW, transition ? transitionsPerStep : 0, seed, philoxStep(step, 1), first);
        }

        /** {@code steps} path steps of transitions at β. Uses path steps {@code step .. step + steps - 1}. */
        public void transition(double beta, int steps, long seed, int step) {
            kernel.transition(x, count, Betas.of(beta), steps * transitionsPerStep, seed, philoxStep(step, steps), first);
        }

        /** {@code steps} path steps of transitions, chain r at {@code betas[r]}. */
        public void transition(ParticleVector betas, int steps, long seed, int step) {
            kernel.transition(x, count, Betas.of(betas), steps * transitionsPerStep, seed, philoxStep(step, steps),
                    first);
        }

        /**
         * {@code logF[r·levels + k] = log f_{β_k}(x_r)} and {@code slope[r·levels + k] = d/dβ log f_β(x_r)}
         * at β_k. Modifies logF and slope.
         */
        public void levels(ParticleVector levelBetas, int levels, ParticleVector logF, ParticleVector slope) {
            kernel.levels(x, count, levelBetas, levels, logF, slope);
        }

        /** {@code out[r] = log f_β(x_r)}. Modifies {@code out}. */
        public void logDensity(double beta, ParticleVector out) {
            kernel.logDensity(x, count, beta, out);
        }

        /** The states, row-major (a download: for diagnostics and tests). */
        public float[] states() {
            return backend.download(x, count);
        }

        /** Chain r takes the state of chain {@code ancestors[r]}, r &lt; count (after resampling). Reads the indices. */
        public void resample(IndexVector ancestors) {
            if (spare == null) {
                spare = backend.matrix(count, x.cols());
            }
            backend.gatherRows(x, ancestors, count, spare, 0);
            ParticleMatrix t = x;
            x = spare;
            spare = t;
        }

        @Override
        public void close() {
            x.close();
            if (spare != null) {
                spare.close();
            }
        }
    }
}
