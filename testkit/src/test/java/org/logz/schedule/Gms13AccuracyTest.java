package org.logz.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.TemperedPath;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * GMS13's binned schedule (Grosse et al. 2013, Kiwaki's Table 1) on the scalar reference backend: its pilot reads the
 * mean slope at each knot (against the closed form where the kernel samples exactly), and AIS on the schedule lands on
 * the exact log Z of the digits RBM.
 */
class Gms13AccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    /** With τ = 0 the toy's kernel draws p_β exactly, so each knot's mean slope is the closed form's within its noise. */
    @Test
    void pilotReadsTheMeanSlopeAtEachKnot() {
        GaussianToy toy = new GaussianToy(20, 10, 0, 0, 1, 0, 1);
        Gms13.Settings settings = new Gms13.Settings(6, 400, 1, 20);
        try (TemperedPath path = new TemperedPath(backend, toy)) {
            Gms13.Plan plan = Gms13.plan(path, 100, settings, 3);
            double[] knots = plan.knots();
            for (int i = 0; i < knots.length; i++) {
                double m = toy.mean(knots[i]);
                double s = toy.sigma(knots[i]);
                double exact = (s * s + (m - 20) * (m - 20)) / 200 - (s * s + m * m) / 2;
                // the slope a x² + b x + c under N(m, s²) has variance a²(4m²s² + 2s⁴) + b²s² + 4ab m s²; the τ = 0 kernel
                // draws afresh at each read: 400 chains × 20 reads, the exact base draws read once
                double a = 1.0 / 200 - 0.5;
                double b = -20.0 / 100;
                double sd = Math.sqrt(a * a * (4 * m * m * s * s + 2 * s * s * s * s) + b * b * s * s + 4 * a * b * m * s * s);
                double reads = i == 0 ? 400 : 400 * 20;
                assertEquals(exact, plan.meanSlope()[i], 4 * sd / Math.sqrt(reads), "knot " + knots[i]);
            }
            assertEquals(5L * 21 * 400, plan.pilotTransitions());
            System.out.printf(Locale.ROOT, "toy gms13: J %s, steps %s%n", Arrays.toString(plan.divergence()),
                    Arrays.toString(plan.steps()));
        }
    }

    @Test
    void aisOnTheScheduleLandsOnTheDigitsRbm() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()))) {
            Gms13.Plan plan = Gms13.plan(path, 500, new Gms13.Settings(10, 50, 20, 50), 7);
            AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(300, plan.schedule(),
                    8)).forward(path, ProgressListener.NONE);
            System.out.printf(Locale.ROOT, "digits gms13: J %s, steps %s%n", Arrays.toString(plan.divergence()),
                    Arrays.toString(plan.steps()));
            Accuracy.assertLands("digits 64x16 " + plan.schedule().name(), r, RbmEnumeration.logZ(f.rbm()), 0.1);
        }
    }
}
