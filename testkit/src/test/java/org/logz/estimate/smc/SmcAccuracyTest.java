package org.logz.estimate.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.estimate.ep.ProbitEp;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.GpClassification;
import org.logz.model.TemperedModel;
import org.logz.model.gpc.GpcFiles;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.ising.Ising;
import org.logz.model.ising.IsingExact;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.TemperedPath;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.Fixtures;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * The SMC sampler and its power-posterior estimates on the scalar reference backend against exact log Z:
 * the digits RBM (enumeration), the 6×6 Ising model (Kaufman), the Gaussian toy (closed form) and GP
 * classification (Genz's evidence of 16 cases). Each model runs eight replicates with adaptive tempering;
 * every estimator must land within max(4·SE, 0.1), the SMC estimate's SE from the replicates (and, with
 * multinomial resampling, the single-run Lee-Whiteley error is checked for calibration too).
 */
class SmcAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();
    private static final int REPLICATES = 8;

    private static List<SmcResult> runs(TemperedModel model, int transitions, SmcSampler.Settings settings) {
        List<SmcResult> runs = new ArrayList<>();
        try (TemperedPath path = new TemperedPath(backend, model, transitions)) {
            for (int b = 0; b < REPLICATES; b++) {
                SmcSampler.Settings s = new SmcSampler.Settings(settings.particles(), settings.steps(),
                        settings.resampleThreshold(), settings.scheme(), org.logz.random.Philox.replicateSeed(
                        settings.seed(), b), settings.headline());
                runs.add(new SmcSampler(s).run(path, ProgressListener.NONE));
            }
        }
        return runs;
    }

    /** Every estimator of the replicates within max(4·SE, 0.1); prints the steps taken. */
    private static void assertAllLand(String name, List<SmcResult> runs, double exact) {
        SmcResult first = runs.get(0);
        System.out.printf(Locale.ROOT, "%s: %d steps (%s), %d resamplings, %.2f s per run%n", name, first.stepCount(),
                first.steps(), first.resamplings(), first.seconds());
        Replicates<SmcResult> smc = Replicates.of(runs);
        Accuracy.assertLands(name + " smc (log mean Ẑ of " + runs.size() + ")", smc.logZ(), smc.stdErr(), exact, 0.1, 0.1);
        for (Method m : List.of(Method.POWER_POSTERIOR, Method.POWER_POSTERIOR_CORRECTED)) {
            double[] v = runs.stream().mapToDouble(r -> r.reading(m).logZ()).toArray();
            double mean = java.util.Arrays.stream(v).average().orElseThrow();
            double sd = Math.sqrt(java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / (v.length - 1));
            Accuracy.assertLands(name + " " + m + " (mean of " + runs.size() + ")", mean, sd / Math.sqrt(v.length), exact,
                    0.1, 0.1);
        }
    }

    private static SmcSampler.Settings adaptive(int particles, double target, long seed) {
        return new SmcSampler.Settings(particles, new SmcSampler.Steps.Adaptive(target, 5000), 0.5,
                ResamplingScheme.RESIDUAL, seed, Method.SMC);
    }

    @Test
    void digitsRbm() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        assertAllLand("digits 64x16", runs(new TemperedRbm(f.rbm(), f.baseRate().orElseThrow()), 1, adaptive(200, 0.99, 1)),
                RbmEnumeration.logZ(f.rbm()));
    }

    @Test
    void ising6x6() {
        Ising ising = new Ising(6);
        assertAllLand("ising 6x6", runs(ising, 2, adaptive(200, 0.99, 2)), IsingExact.logZ(ising, 1.0));
    }

    @Test
    void gaussianToy() {
        GaussianToy toy = GaussianToy.habeck();
        assertAllLand("gauss-toy", runs(toy, 1, adaptive(300, 0.99, 3)), toy.logZ1());
    }

    @Test
    void gpcFromEpAndFromThePrior() throws java.io.IOException {
        java.util.Map<String, NpyArray> f;
        try (java.io.InputStream in = SmcAccuracyTest.class.getResourceAsStream("/org/logz/fixtures/gpc/gpc-n16.npz")) {
            f = Npz.read("gpc-n16", in);
        }
        GpClassification m = GpcFiles.parse("gpc-n16", f, OptionalDouble.empty(), OptionalDouble.empty());
        double exact = f.get("log_z").toDoubles()[0];
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        assertAllLand("gpc n=16 from ep", runs(TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu()), 1,
                adaptive(200, 0.99, 4)), exact);
        assertAllLand("gpc n=16 from the prior", runs(TemperedGpc.fromPrior(m), 2, adaptive(200, 0.99, 5)), exact);
    }

    /**
     * A fixed schedule and multinomial resampling: the single-run Lee-Whiteley errors are finite and of the
     * size of the replicates' spread; every chosen β of an adaptive run is increasing and ends at 1, with the
     * conditional ESS at the target but for the last step.
     */
    @Test
    void fixedScheduleLeeWhiteleyAndAdaptiveTrace() {
        RbmFiles.RbmFile f = Fixtures.digits64x16();
        TemperedRbm model = new TemperedRbm(f.rbm(), f.baseRate().orElseThrow());
        List<SmcResult> runs = runs(model, 1, new SmcSampler.Settings(200, new SmcSampler.Steps.Fixed(Schedule.linear(100)),
                0.5, ResamplingScheme.MULTINOMIAL, 11, Method.SMC));
        assertAllLand("digits 64x16 linear:100 multinomial", runs, RbmEnumeration.logZ(f.rbm()));
        double sd = Replicates.of(runs).sdLogZ();
        double meanError = runs.stream().mapToDouble(r -> r.standardError().orElseThrow()).average().orElseThrow();
        System.out.printf(Locale.ROOT, "Lee-Whiteley mean %.4f, spread of log Ẑ %.4f%n", meanError, sd);
        assertTrue(meanError > sd / 3 && meanError < 3 * sd, "Lee-Whiteley " + meanError + " against the spread " + sd);
        SmcResult adaptive = runs(model, 1, adaptive(100, 0.8, 12)).get(0);
        double[] betas = adaptive.betas();
        assertEquals(0, betas[0]);
        assertEquals(1, betas[betas.length - 1]);
        for (int t = 1; t < betas.length; t++) {
            assertTrue(betas[t] > betas[t - 1], "β increases at step " + t);
            if (t < betas.length - 1) {
                assertEquals(0.8 * 100, adaptive.trace().get(t).conditionalEss(), 0.05 * 0.8 * 100, "conditional ESS, step " + t);
            }
        }
    }
}
