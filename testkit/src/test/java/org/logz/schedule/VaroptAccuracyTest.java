package org.logz.schedule;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.model.TemperedModel;
import org.logz.model.ising.Ising;
import org.logz.model.ising.IsingExact;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.TemperedPath;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * AIS on VAROPT schedules (Kiwaki 2015), plain and decelerated, on the scalar reference backend against exact
 * log Z: the digits RBM, the 6×6 Ising model and the Gaussian toy, within max(4·SE, 0.1) with the SE capped;
 * the plan's pilot costs are counted and its schedule is denser where V is larger.
 */
class VaroptAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    private static void lands(String name, TemperedModel model, Varopt.Settings settings, int steps, double exact) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            Varopt.Plan plan = Varopt.plan(path, steps, settings, 7);
            AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(300, plan.schedule(),
                    8)).forward(path, ProgressListener.NONE);
            Accuracy.assertLands(name + " " + plan.schedule().name(), r, exact, 0.1);
            assertTrue(plan.pilotTransitions() == (long) (settings.pilotSteps() - 1) * settings.pilotChains(),
                    "the pilot's transitions are counted");
            double[] betas = plan.schedule().betas();
            double[] v = plan.smoothed();
            double[] grid = plan.pilotBetas();
            // where V is largest on the pilot grid, VAROPT's steps are shorter than where it is smallest
            int hi = 0;
            int lo = 0;
            for (int k = 0; k < v.length; k++) {
                hi = v[k] > v[hi] ? k : hi;
                lo = v[k] < v[lo] ? k : lo;
            }
            System.out.printf(Locale.ROOT, "  V from %.3g (β %.2f) to %.3g (β %.2f); steps there %.2e and %.2e%n", v[lo],
                    grid[lo], v[hi], grid[hi], stepAt(betas, grid[lo]), stepAt(betas, grid[hi]));
            if (settings.maxStep() == 1 && v[hi] > 4 * v[lo]) {
                assertTrue(stepAt(betas, grid[hi]) < stepAt(betas, grid[lo]), name + ": denser where V is larger");
            }
        }
    }

    private static double stepAt(double[] betas, double beta) {
        for (int k = 1; k < betas.length; k++) {
            if (betas[k] >= beta) {
                return betas[k] - betas[k - 1];
            }
        }
        return betas[betas.length - 1] - betas[betas.length - 2];
    }

    @Test
    void digitsRbm() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        TemperedRbm model = new TemperedRbm(f.rbm(), f.baseRate().orElseThrow());
        double exact = RbmEnumeration.logZ(f.rbm());
        lands("digits 64x16", model, new Varopt.Settings(100, 50, 1), 500, exact);
        lands("digits 64x16", model, new Varopt.Settings(100, 50, 0.009), 500, exact);
    }

    @Test
    void ising6x6() {
        Ising ising = new Ising(6);
        lands("ising 6x6", ising, new Varopt.Settings(100, 50, 1), 500, IsingExact.logZ(ising, 1.0));
    }

    @Test
    void gaussianToy() {
        GaussianToy toy = GaussianToy.habeck();
        lands("gauss-toy", toy, new Varopt.Settings(100, 50, 1), 500, toy.logZ1());
    }
}
