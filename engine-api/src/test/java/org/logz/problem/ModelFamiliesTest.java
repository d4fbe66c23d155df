package org.logz.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.model.gmm.GmmFamily;
import org.logz.model.gpc.GpcFamily;
import org.logz.model.ising.IsingFamily;
import org.logz.model.ising.IsingProblem;
import org.logz.model.latent.LatentFamily;
import org.logz.model.mixture.MixtureFamily;
import org.logz.model.potts.PottsFamily;
import org.logz.model.rbm.RbmFamily;
import org.logz.model.rbm.RbmProblem;
import org.logz.model.toy.ToyFamily;
import org.logz.model.toy.ToyProblem;
import org.logz.options.Family;

/** The registry: the families found by ServiceLoader, the dispatch on spec prefixes, and the messages built from it. */
class ModelFamiliesTest {
    @Test
    void familiesAreFoundInOrder() {
        assertEquals(List.of(RbmFamily.class, IsingFamily.class, PottsFamily.class, ToyFamily.class, GmmFamily.class,
                GpcFamily.class, LatentFamily.class, MixtureFamily.class),
                ModelFamilies.all().stream().map(Object::getClass).toList());
    }

    @Test
    void specsGoToTheFamilyOfTheirPrefix() {
        assertInstanceOf(IsingProblem.class, Problem.parse(" Ising:L=4 "));
        assertInstanceOf(ToyProblem.class, Problem.parse("gauss-toy"));
        RbmProblem demo = assertInstanceOf(RbmProblem.class, Problem.parse(null));
        assertTrue(demo.source().demo());
        assertInstanceOf(IsingFamily.class, Problem.parse("ising:L=4").family());
    }

    @Test
    void messagesListTheFamilies() {
        assertEquals("--model is empty; give an RBM .npz file, ising:L=N, potts:q=Q,L=N, gauss-toy[:key=value,...] or gmm[:d=N,sep=S,...]",
                assertThrows(UserException.class, () -> Problem.parse("  ")).getMessage());
        assertEquals("--log-ell and --log-sigma apply to GP classification (--model gpc:...) only",
                assertThrows(UserException.class, () -> Problem.parse("ising:L=4", OptionalDouble.of(1),
                        OptionalDouble.empty())).getMessage());
        assertEquals("RBMs", ModelFamilies.readers("--data"));
        assertEquals("latent-variable models (--model glmm:... or sv:...)", ModelFamilies.readers("--proposal"));
        assertEquals("GP classification (--model gpc:...)", ModelFamilies.running(Family.APPROXIMATION));
        assertEquals("--method rm builds up an RBM's visible units, a GP classifier's cases, a GLMM's groups (data "
                + "annealing) or a mixture's observations (data annealing); it does not apply to ising:L=4",
                assertThrows(UserException.class, () -> Problem.parse("ising:L=4").sequence(null, null,
                        ResampleMove.Variant.RM, Method.RM)).getMessage());
    }
}
