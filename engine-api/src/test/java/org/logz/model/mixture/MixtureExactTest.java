package org.logz.model.mixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;

/**
 * The sum over allocations against evidences computed another way: one observation (a mixture of the K prior
 * predictives), and two components in one dimension with three observations by a tensor midpoint rule over (μ_1, μ_2)
 * of prior × likelihood as {@link Mixture#exactLogLikelihood} computes it.
 */
class MixtureExactTest {
    private static double logNormal(double y, double mean, double var) {
        return -0.5 * Math.log(2 * Math.PI * var) - (y - mean) * (y - mean) / (2 * var);
    }

    @Test
    void oneObservationIsAMixtureOfPriorPredictives() {
        Mixture m = new Mixture(new double[] {0.7, -1.3}, 2, new double[] {0.25, 0.75}, 0.8, new double[] {0.1, -0.2}, 1.7,
                "one");
        double var = 0.8 * 0.8 + 1.7 * 1.7;
        double expected = Math.log(0.25 + 0.75) + logNormal(0.7, 0.1, var) + logNormal(-1.3, -0.2, var);
        assertEquals(expected, MixtureExact.logEvidence(m).orElseThrow(), 1e-12);
    }

    @Test
    void threeObservationsMatchQuadratureOverBothMeans() {
        Mixture m = new Mixture(new double[] {-1.1, 0.4, 2.3}, 1, new double[] {0.4, 0.6}, 0.9, new double[] {0.3}, 1.5,
                "three");
        int nodes = 1200;
        double lo = -9;
        double h = 18.0 / nodes;
        double max = Double.NEGATIVE_INFINITY;
        double[] terms = new double[nodes * nodes];
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                double[] theta = {lo + (a + 0.5) * h, lo + (b + 0.5) * h};
                double t = m.logPrior(theta) + m.exactLogLikelihood(theta).orElseThrow();
                terms[a * nodes + b] = t;
                max = Math.max(max, t);
            }
        }
        double sum = 0;
        for (double t : terms) {
            sum += Math.exp(t - max);
        }
        double quadrature = max + Math.log(sum * h * h);
        assertEquals(quadrature, MixtureExact.logEvidence(m).orElseThrow(), 1e-8);
    }

    @Test
    void theShippedSetHasAnExactValueAndTheLargeOneNone() {
        MixtureProblem small = new MixtureProblem(MixtureFiles.read("sim12"));
        assertEquals(-42.7073, small.exact().logZ(), 1e-4);
        MixtureProblem large = new MixtureProblem(MixtureFiles.read("sim200"));
        assertFalse(MixtureExact.feasible(large.model()));
        assertTrue(large.exactLogZ(true).isEmpty());
        UserException e = assertThrows(UserException.class, large::exact);
        assertTrue(e.getMessage().contains("no exact value"), e.getMessage());
    }

    @Test
    void badModelsAreRefusedWithOneLine() {
        assertThrows(UserException.class, () -> new Mixture(new double[] {1}, 1, new double[] {0.5, 0.6}, 1,
                new double[] {0}, 1, "sum"));
        assertThrows(UserException.class, () -> new Mixture(new double[] {1}, 1, new double[] {1}, 0, new double[] {0}, 1,
                "sigma"));
        assertThrows(UserException.class, () -> new Mixture(new double[] {1e200}, 1, new double[] {1}, 1,
                new double[] {0}, 1, "huge"), "data whose squares overflow");
        assertThrows(UserException.class, () -> new Mixture(new double[] {1}, 1, new double[] {1}, 1e-300,
                new double[] {0}, 1, "tiny sigma"), "a σ whose ratio to the data overflows");
        assertThrows(UserException.class, () -> new Mixture(new double[] {Double.NaN}, 1, new double[] {1}, 1,
                new double[] {0}, 1, "nan"));
        assertThrows(UserException.class, () -> new Mixture(new double[] {1, 2, 3}, 2, new double[] {1}, 1,
                new double[] {0, 0}, 1, "shape"));
    }
}
