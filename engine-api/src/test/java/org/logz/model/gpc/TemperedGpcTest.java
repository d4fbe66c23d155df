package org.logz.model.gpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.estimate.ep.ProbitEp;
import org.logz.model.GpClassification;

class TemperedGpcTest {
    @Test
    void zeroCovarianceHasRankZeroAndEllOfNLogHalf() {
        GpClassification m = new GpClassification(new double[9], new int[] {1, -1, 1}, "zero");
        TemperedGpc prior = TemperedGpc.fromPrior(m);
        assertEquals(0, prior.rank());
        assertEquals(3 * Math.log(0.5), prior.logLikelihoodRatio(new float[3], 0), 1e-15);
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        TemperedGpc q = TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu());
        assertEquals(0, q.rank());
        assertEquals(3 * Math.log(0.5), q.logLikelihoodRatio(new float[3], 0), 1e-15, "q is the point mass at 0 too");
    }

    @Test
    void epBaseIsEpsPosterior() {
        double[][] x = {{0.1}, {0.5}, {-0.7}, {1.2}};
        GpClassification m = GpClassification.squaredExponential(x, new int[] {1, 1, -1, 1}, 0.2, 1.0, "four");
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        TemperedGpc q = TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu());
        int n = 4;
        assertEquals(n, q.rank());
        double[] cov = ep.covariance();
        for (int i = 0; i < n; i++) {
            assertEquals(ep.mean()[i], q.mean()[i], 1e-9, "μ_" + i);
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < q.rank(); k++) {
                    s += q.factor().at(i, k) * q.factor().at(j, k);
                }
                assertEquals(cov[i * n + j], s, 1e-9, "Σ_" + i + j);
            }
        }
    }

    @Test
    void indefiniteCovarianceIsRefusedForAnnealing() {
        // K has eigenvalues ±0.5, so K + I (0.5 and 1.5) is positive definite and K is not
        GpClassification m = new GpClassification(new double[] {0, 0.5, 0.5, 0}, new int[] {1, 1}, "indefinite");
        UserException e = assertThrows(UserException.class, () -> TemperedGpc.fromPrior(m));
        assertTrue(e.getMessage().contains("not positive semi-definite"), e.getMessage());
    }

    @Test
    void startsParseByName() {
        assertEquals(TemperedGpc.Start.EP, TemperedGpc.Start.parse(" EP"));
        assertEquals("prior", TemperedGpc.Start.PRIOR.toString());
        assertThrows(UserException.class, () -> TemperedGpc.Start.parse("posterior"));
    }
}
