package org.logz.kernel;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;

/** Checks every argument of a {@link SequentialKernel} call once, for every model and backend. */
final class CheckedSequentialKernel implements SequentialKernel {
    private final ParticleBackend backend;
    private final SequentialKernel kernel;
    private final int length;
    private final int[] columns;
    private boolean closed;

    CheckedSequentialKernel(ParticleBackend backend, SequentialKernel kernel, int length, int dimension) {
        this.backend = backend;
        this.kernel = kernel;
        this.length = length;
        this.columns = kernel.stateColumns();
        if (columns.length == 0 || columns[0] != dimension) {
            throw new IllegalStateException("a sequential kernel's first state matrix must hold its " + dimension
                    + " variables");
        }
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public int[] stateColumns() {
        return columns.clone();
    }

    @Override
    public void reset(ParticleState state, int first, int count) {
        rows(state, first, count);
        kernel.reset(state, first, count);
    }

    @Override
    public void start(ParticleState state, int first, int count, long seed, int step) {
        rows(state, first, count);
        kernel.start(state, first, count, seed, step);
    }

    @Override
    public void refresh(ParticleState state, int first, int count) {
        rows(state, first, count);
        kernel.refresh(state, first, count);
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int transitions, long seed, int step) {
        rows(state, first, count);
        if (active < 0 || active > length) {
            throw new IllegalArgumentException("active variables " + active + " outside [0, " + length + "]");
        }
        KernelArguments.transitions(transitions);
        kernel.move(state, active, first, count, transitions, seed, step);
    }

    @Override
    public void smooth(ParticleState state, int variable, int first, int count, ParticleVector logW) {
        rows(state, first, count);
        variable(variable);
        backend.range(logW, first, count);
        kernel.smooth(state, variable, first, count, logW);
    }

    @Override
    public void augment(ParticleState state, int variable, int first, int count, long seed, int step) {
        rows(state, first, count);
        variable(variable);
        kernel.augment(state, variable, first, count, seed, step);
    }

    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        rows(state, 0, count);
        backend.range(out, 0, count);
        kernel.logDensity(state, count, out);
    }

    private void variable(int variable) {
        if (variable < 0 || variable >= length) {
            throw new IllegalArgumentException("variable " + variable + " outside [0, " + length + ")");
        }
    }

    private void rows(ParticleState state, int first, int count) {
        if (closed) {
            throw new IllegalStateException("kernel is closed");
        }
        if (state.matrices().size() != columns.length) {
            throw new IllegalArgumentException("particle state has " + state.matrices().size() + " matrices, the kernel "
                    + columns.length);
        }
        for (int k = 0; k < columns.length; k++) {
            backend.rows(state.matrix(k), first, count);
            state.matrix(k).requireColumns(columns[k], "columns of state matrix " + k);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            kernel.close();
        }
    }
}
