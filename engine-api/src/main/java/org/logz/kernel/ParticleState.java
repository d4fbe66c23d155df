package org.logz.kernel;

import java.util.List;

import org.logz.backend.ParticleMatrix;

/**
 * Particles of a {@link SequentialKernel}: row r of every matrix belongs to particle r. Matrix 0
 * holds the variables; generic code moves, copies and gathers particles by moving the same rows of
 * every matrix.
 */
public record ParticleState(List<ParticleMatrix> matrices) {
    public ParticleState {
        matrices = List.copyOf(matrices);
        if (matrices.isEmpty()) {
            throw new IllegalArgumentException("a particle state needs at least the matrix of its variables");
        }
    }

    /** The variables, one column each. */
    public ParticleMatrix variables() {
        return matrices.get(0);
    }

    public ParticleMatrix matrix(int k) {
        return matrices.get(k);
    }

    /** Rows every matrix has. */
    public int capacity() {
        return matrices.stream().mapToInt(ParticleMatrix::rows).min().orElseThrow();
    }
}
