package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.KernelProvider;
import org.logz.kernel.KernelUnavailableException;
import org.logz.kernel.Kernels;
import org.logz.kernel.LikelihoodKernel;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.kernel.TemperedKernel;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.model.SequentialModel;
import org.logz.model.TemperedModel;
import org.logz.model.latent.LatentFiles;

/**
 * The kernel providers' contract (DESIGN §2): a backend module registers, through ServiceLoader, one
 * provider per model it serves, each binding kernels of the model's shape that close idempotently and
 * fail clearly once closed; a kind of kernel nobody provides is refused with the backend's name. The
 * models are those registered ({@link Examples}): a backend serves every model the reference backend serves.
 */
public abstract class KernelProviderContract extends BackendTest {

    @Test
    void everyModelHasExactlyOneProviderForThisBackend() {
        Set<Class<?>> served = new HashSet<>();
        for (KernelProvider<?> p : Kernels.providers()) {
            if (p.backendType().isInstance(backend)) {
                assertTrue(served.add(p.modelType()), "two providers of " + p.modelType().getSimpleName() + " for "
                        + backend.name());
            }
        }
        assertEquals(Set.copyOf(Examples.modelTypes()), served, backend.name() + " serves every model logz has");
    }

    @Test
    void temperedKernelsHaveTheModelsShapeAndCloseOnce() {
        for (TemperedModel model : Examples.of(TemperedModel.class)) {
            TemperedKernel kernel = Kernels.tempered(backend, model);
            assertEquals(model.dimension(), kernel.dimension(), model.description());
            try (ParticleMatrix x = backend.matrix(3, model.dimension())) {
                kernel.sampleBase(x, 3, 1, 0);
                kernel.close();
                kernel.close();
                assertThrows(IllegalStateException.class, () -> kernel.sampleBase(x, 3, 1, 0), model.description());
            }
        }
    }

    /**
     * DESIGN §1's split runs rest on this: chains {@code a .. a + m - 1} run as a batch of their own, from chain a,
     * draw and compute what they do in the whole batch, to the bit. The part starts at a multiple of 64 (ChainPart's
     * block), where the CPU's tiled products are those of the whole batch; the whole batch has a partial last tile.
     * A model whose chains run as one batch on the reference backend (the pseudo-marginal one) has no parts.
     */
    @Test
    void aBatchOfChainsFromChainAIsThoseChainsOfTheWholeBatch() {
        int whole = 150;
        int first = 64;
        int count = 70;
        for (TemperedModel model : Examples.of(TemperedModel.class)) {
            if (!runsInParts(model)) {
                continue;
            }
            try (TemperedKernel kernel = Kernels.tempered(backend, model)) {
                int d = model.dimension();
                Batch all = batch(kernel, d, 0, whole);
                Batch part = batch(kernel, d, first, count);
                assertArrayEquals(Arrays.copyOfRange(all.states(), first * d, (first + count) * d), part.states(),
                        model.description());
                assertArrayEquals(Arrays.copyOfRange(all.logW(), first, first + count), part.logW(), model.description());
            }
        }
    }

    /** Whether the reference backend runs a part of a batch of {@code model}'s chains, from a chain other than 0. */
    private boolean runsInParts(TemperedModel model) {
        try (TemperedKernel kernel = Kernels.tempered(reference, model);
             ParticleMatrix x = reference.matrix(1, model.dimension())) {
            kernel.sampleBase(x, 1, 1, 0, 64);
            return true;
        } catch (UnsupportedOperationException oneBatch) {
            return false;
        }
    }

    @Test
    void pseudoMarginalChainsRunAsOneBatch() {
        try (TemperedKernel kernel = Kernels.tempered(backend, new PseudoMarginal(LatentFiles.glmm("sim8"),
                new Likelihood.Estimated(2, Likelihood.Proposal.LAPLACE)));
             ParticleMatrix x = backend.matrix(3, kernel.dimension())) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> kernel.sampleBase(x, 3, 1, 0, 64));
            assertTrue(e.getMessage().contains("one batch"), e.getMessage());
        }
    }

    private record Batch(float[] states, double[] logW) {
    }

    /** A base draw, annealing up with two transitions, per-chain transitions, and a step down, from chain {@code first}. */
    private Batch batch(TemperedKernel kernel, int d, int first, int count) {
        try (ParticleMatrix x = backend.matrix(count, d); ParticleVector logW = backend.vector(count)) {
            backend.fill(logW, 0, count, 0.0);
            kernel.sampleBase(x, count, 9, 0, first);
            kernel.anneal(x, count, 0.0, 0.4, logW, 2, 9, 1, first);
            kernel.transition(x, count, Betas.of(0.7), 2, 9, 3, first);
            kernel.anneal(x, count, 0.7, 0.5, logW, 1, 9, 5, first);
            return new Batch(backend.download(x, count), backend.download(logW, count));
        }
    }

    @Test
    void likelihoodKernelsCloseOnce() {
        for (LatentModel model : Examples.of(LatentModel.class)) {
            if (model.proposals().isEmpty()) {
                // an exact likelihood only (the mixture): nothing estimates it
                continue;
            }
            LikelihoodKernel kernel = Kernels.likelihood(backend, model);
            try (ParticleMatrix theta = backend.matrix(2, model.parameters()); ParticleVector out = backend.vector(2)) {
                Likelihood.Estimated l = new Likelihood.Estimated(2, Likelihood.Proposal.defaultFor(model));
                kernel.estimate(theta, 2, l, 1, 0, out);
                kernel.close();
                kernel.close();
                assertThrows(IllegalStateException.class, () -> kernel.estimate(theta, 2, l, 1, 0, out),
                        model.description());
            }
        }
    }

    @Test
    void sequentialKernelsHaveTheModelsShapeAndCloseOnce() {
        for (SequentialModel model : Examples.of(SequentialModel.class)) {
            SequentialKernel kernel = Kernels.sequential(backend, model);
            assertEquals(model.length(), kernel.length(), model.description());
            assertEquals(model.dimension(), kernel.stateColumns()[0], model.description() + ": the path's variables come first");
            List<ParticleMatrix> state = new ArrayList<>();
            for (int columns : kernel.stateColumns()) {
                state.add(backend.matrix(2, columns));
            }
            kernel.close();
            kernel.close();
            assertThrows(IllegalStateException.class, () -> kernel.reset(new ParticleState(state), 0, 2), model.description());
            state.forEach(ParticleMatrix::close);
        }
    }

    @Test
    void aKindOfKernelNobodyProvidesIsRefusedWithTheBackendsName() {
        KernelUnavailableException e = assertThrows(KernelUnavailableException.class,
                () -> Kernels.tempered(backend, new TemperedModel() {
                    @Override
                    public String description() {
                        return "a model no backend knows";
                    }

                    @Override
                    public int dimension() {
                        return 2;
                    }

                    @Override
                    public double logZ0() {
                        return 0;
                    }
                }));
        assertTrue(e.getMessage().startsWith(backend.name() + ": no tempered kernel for this model"), e.getMessage());
    }
}
