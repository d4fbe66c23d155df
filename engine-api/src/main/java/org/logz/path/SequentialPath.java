package org.logz.path;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.model.SequentialModel;

/**
 * A sequential path {@code p_n(x_[n]) = f_n(x_[n]) / Z_n} that adds one variable per iteration
 * (ARM paper §2; DESIGN §2), {@code n = 0 .. length}, over any {@link SequentialModel} whose kernel the
 * backend has. Resample-Move and ARM are written once against it. Particles live on the backend;
 * rows are {@code [first, first + count)}; copying, placing and reseeding particles move the same
 * rows of every matrix of the kernel's {@link ParticleState}, whatever the model.
 */
public final class SequentialPath implements AutoCloseable {
    private final ParticleBackend backend;
    private final SequentialModel model;
    private final SequentialKernel kernel;
    private ParticleMatrix examples;
    private int exampleCount;

    /** Binds the model's kernel on {@code backend} ({@link Kernels#sequential}). */
    public SequentialPath(ParticleBackend backend, SequentialModel model) {
        this.backend = backend;
        this.model = model;
        this.kernel = Kernels.sequential(backend, model);
    }

    public SequentialModel model() {
        return model;
    }

    public String description() {
        return model.description();
    }

    public ParticleBackend backend() {
        return backend;
    }

    /** Number of variables N, i.e. of iterations. */
    public int length() {
        return model.length();
    }

    /** {@code log Z_0}, exact. */
    public double logZ0() {
        return model.logZ0();
    }

    /** Whether {@code log Z ≥ log f(x)} for every full state (see {@link Particles#logDensity}). */
    public boolean discrete() {
        return model.discrete();
    }

    /** Whether {@link Particles#reseed} can draw fresh particles (needs examples to start chains from). */
    public boolean canReseed() {
        return model.hasExamples();
    }

    /** Backend bytes one particle occupies (states and per-particle scratch), for memory checks. */
    public long bytesPerParticle() {
        return model.bytesPerParticle();
    }

    /**
     * Allocates storage for {@code capacity} particles, plus room to rearrange up to
     * {@code placeCapacity} of them at once ({@link Particles#place}); nothing is reallocated later.
     */
    public Particles particles(int capacity, int placeCapacity) {
        return new Particles(capacity, placeCapacity);
    }

    /** The model's examples, uploaded once on first use. */
    private ParticleMatrix examples() {
        if (examples == null) {
            float[] rows = model.examples().orElseThrow(() -> new IllegalStateException(
                    "reseeding needs a data set to start chains from"));
            exampleCount = rows.length / model.dimension();
            examples = backend.matrix(exampleCount, model.dimension());
            backend.upload(rows, exampleCount, examples);
        }
        return examples;
    }

    @Override
    public void close() {
        if (examples != null) {
            examples.close();
            examples = null;
        }
        kernel.close();
    }

    /** Particle storage on the backend: a {@link ParticleState} and the spare rows that rearranging needs. */
    public final class Particles implements AutoCloseable {
        private final int capacity;
        private final ParticleState state;
        private final ParticleState spare;
        private final IndexVector rows;

        private Particles(int capacity, int placeCapacity) {
            if (placeCapacity < 1 || placeCapacity > capacity) {
                throw new UserException("place capacity " + placeCapacity + " outside [1, " + capacity + "]");
            }
            this.capacity = capacity;
            this.state = allocate(capacity);
            this.spare = allocate(placeCapacity);
            this.rows = backend.indices(placeCapacity);
        }

        private ParticleState allocate(int rowCount) {
            java.util.List<ParticleMatrix> matrices = new java.util.ArrayList<>();
            for (int cols : kernel.stateColumns()) {
                matrices.add(backend.matrix(rowCount, cols));
            }
            return new ParticleState(matrices);
        }

        public int capacity() {
            return capacity;
        }

        /** Particles drawn from {@code p_0} (its single state where it has one), under Philox {@code (seed, row, step)}. */
        public void start(int first, int count, long seed, int step) {
            kernel.start(state, first, count, seed, step);
        }

        /** The move step: {@code transitions} transitions that leave {@code p_active} invariant. */
        public void move(int active, int first, int count, int transitions, long seed, int step) {
            if (active > 0) {
                kernel.move(state, active, first, count, transitions, seed, step);
            }
        }

        /** The smooth step for adding variable {@code unit}: {@code logW += log W(x)} (eq. 3, new variable summed out). */
        public void smooth(int unit, int first, int count, ParticleVector logW) {
            kernel.smooth(state, unit, first, count, logW);
        }

        /** {@code out[r] = log f_n(x_[n])} for rows {@code [0, count)}. Modifies {@code out}. */
        public void logDensity(int count, ParticleVector out) {
            kernel.logDensity(state, count, out);
        }

        /** The augment step: draws variable {@code unit} from {@code p_{unit+1}(x_unit | x_[unit])}. */
        public void augment(int unit, int first, int count, long seed, int step) {
            kernel.augment(state, unit, first, count, seed, step);
        }

        /** Copies rows {@code [from, from + count)} to rows starting at {@code to} (non-overlapping). */
        public void copy(int from, int to, int count) {
            for (ParticleMatrix m : state.matrices()) {
                backend.copyRows(m, from, m, to, count);
            }
        }

        /** Rows {@code [to, to + count)} become rows {@code sources[0, count)}; any overlap is allowed. */
        public void place(IndexVector sources, int count, int to) {
            for (int k = 0; k < state.matrices().size(); k++) {
                backend.gatherRows(state.matrix(k), sources, count, spare.matrix(k), 0);
                backend.copyRows(spare.matrix(k), 0, state.matrix(k), to, count);
            }
        }

        /**
         * Fresh particles of {@code p_active} in rows {@code [first, first + count)}: chains started
         * from random examples restricted to the first {@code active} variables, run
         * {@code transitions} move transitions. Consumes steps {@code step .. step + transitions}.
         *
         * @throws IllegalStateException when the model has no examples ({@link #canReseed()})
         */
        public void reseed(int active, int first, int count, int transitions, long seed, int step) {
            ParticleMatrix from = examples();
            if (count > rows.length()) {
                throw new UserException("reseeding " + count + " particles exceeds the place capacity "
                        + rows.length());
            }
            backend.randomIndices(exampleCount, count, seed, step, rows);
            backend.gatherRows(from, rows, count, state.variables(), first);
            backend.zeroColumns(state.variables(), first, count, active);
            kernel.refresh(state, first, count);
            move(active, first, count, transitions, seed, step + 1);
        }

        /** The variables of rows {@code [first, first + count)}, row-major (a download, for tests). */
        public float[] states(int first, int count) {
            int n = model.dimension();
            float[] all = backend.download(state.variables(), first + count);
            return java.util.Arrays.copyOfRange(all, first * n, (first + count) * n);
        }

        @Override
        public void close() {
            for (ParticleState s : new ParticleState[] {state, spare}) {
                s.matrices().forEach(ParticleMatrix::close);
            }
            rows.close();
        }
    }
}
