package org.logz.model.rbm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * The moment-averages path (Grosse et al. 2013) on the scalar reference backend: with no interior knot it is the
 * geometric path, density and slope; with fitted knots AIS on it lands on the digits RBM's exact log Z.
 */
class MomentAveragingAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    @Test
    void withoutInteriorKnotsItIsTheGeometricPath() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        Rbm rbm = f.rbm();
        BaseRate base = f.baseRate().orElseThrow();
        RbmSpline spline = new RbmSpline(List.of(RbmSpline.baseRbm(base, rbm.hidden()), rbm), new double[] {0, 1}, base,
                "no interior knots");
        int m = 20;
        double[] betas = {0, 0.3, 0.71, 1};
        try (TemperedKernel full = Kernels.tempered(backend, new TemperedRbm(rbm, base));
             TemperedKernel mas = Kernels.tempered(backend, spline); ParticleMatrix x = backend.matrix(m, rbm.visible());
             ParticleVector logW = backend.vector(m); ParticleVector levels = backend.vector(betas.length);
             ParticleVector fa = backend.vector(m * betas.length); ParticleVector sa = backend.vector(m * betas.length);
             ParticleVector fb = backend.vector(m * betas.length); ParticleVector sb = backend.vector(m * betas.length)) {
            full.sampleBase(x, m, 3, 0);
            backend.fill(logW, 0, m, 0.0);
            full.anneal(x, m, 0, 0.5, logW, 5, 3, 1);
            backend.upload(betas, levels);
            full.levels(x, m, levels, betas.length, fa, sa);
            mas.levels(x, m, levels, betas.length, fb, sb);
            assertArrayEquals(backend.download(fa, m * betas.length), backend.download(fb, m * betas.length), 1e-3);
            assertArrayEquals(backend.download(sa, m * betas.length), backend.download(sb, m * betas.length), 1e-3);
            assertEquals(new TemperedRbm(rbm, base).logZ0(), spline.logZ0(), 0);
        }
    }

    @Test
    void aisOnTheFittedPathLandsOnTheDigitsRbm() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        Rbm rbm = f.rbm();
        BaseRate base = f.baseRate().orElseThrow();
        RbmSpline spline = MomentAveraging.fit(rbm, base, new MomentAveraging.Settings(4, 100, 100, 200, 50, 0.05), backend,
                5);
        double exact = RbmEnumeration.logZ(rbm);
        AnnealedImportanceSampling ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(300,
                Schedule.linear(500), 8));
        AnnealingResult geometric;
        AnnealingResult moments;
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, base))) {
            geometric = ais.forward(path, ProgressListener.NONE);
        }
        try (TemperedPath path = new TemperedPath(backend, spline)) {
            moments = ais.forward(path, ProgressListener.NONE);
        }
        System.out.printf(Locale.ROOT, "digits 64x16, 300 chains × 500 steps: geometric ESS %.1f, moment averages ESS %.1f "
                + "(%s)%n", geometric.ess(), moments.ess(), spline.summary());
        Accuracy.assertLands("digits 64x16 on the moment-averages path", moments, exact, 0.1);
        assertTrue(moments.ess() > 10, "a fitted path keeps some chains: ESS " + moments.ess());
    }
}
