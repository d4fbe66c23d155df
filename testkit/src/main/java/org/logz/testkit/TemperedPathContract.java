package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.TemperedModel;
import org.logz.model.ising.Ising;
import org.logz.path.TemperedPath;

/**
 * The contract of {@link TemperedPath} and of kernel lookup ({@link Kernels}): one path over every
 * model's kernel, its transitions per step honoured for every model with the Philox numbering
 * DESIGN §3 gives them, and a model without a kernel refused with the backend's name.
 */
public abstract class TemperedPathContract extends BackendTest {
    @Test
    void transitionsPerStepAreTheKernelsTransitionsAtTheStepsPhiloxIndices() {
        int count = 67;
        long seed = 19;
        for (TemperedModel model : Examples.of(TemperedModel.class)) {
            float[][] byPath = new float[2][];
            for (int n : new int[] {1, 3}) {
                try (TemperedPath path = new TemperedPath(backend, model, n); TemperedPath.Chains chains = path.chains(count);
                     ParticleVector lw = backend.vector(count)) {
                    chains.sampleBase(seed, 0);
                    chains.anneal(0.0, 0.5, lw, true, seed, 1);
                    chains.transition(0.5, 2, seed, 2);
                    byPath[n == 1 ? 0 : 1] = chains.states();
                }
            }
            try (TemperedKernel kernel = Kernels.tempered(backend, model);
                 ParticleMatrix x = backend.matrix(count, model.dimension()); ParticleVector lw = backend.vector(count)) {
                kernel.sampleBase(x, count, seed, 0);
                kernel.anneal(x, count, 0.0, 0.5, lw, 3, seed, 3);
                kernel.transition(x, count, org.logz.backend.Betas.of(0.5), 6, seed, 6);
                assertArrayEquals(backend.download(x, count), byPath[1], model.description() + ": step s owns steps 3s..3s+2");
            }
            assertFalse(Arrays.equals(byPath[0], byPath[1]), model.description() + ": 3 transitions per step differ from 1");
        }
    }

    @Test
    void impossibleTransitionsPerStepAreRefused() {
        Ising model = new Ising(4);
        assertThrows(IllegalArgumentException.class, () -> new TemperedPath(backend, model, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new TemperedPath(backend, model, TemperedPath.MAX_TRANSITIONS_PER_STEP + 1));
        try (TemperedPath path = new TemperedPath(backend, model, 1000); TemperedPath.Chains chains = path.chains(3);
             ParticleVector lw = backend.vector(3)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> chains.anneal(0, 1, lw, true, 1, 1 << 22));
            assertTrue(e.getMessage().contains("2^31"), e.getMessage());
        }
    }
}
