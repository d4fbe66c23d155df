package org.logz.estimate;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.model.gmm.GaussianMixture;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * The 10-dimensional Gaussian mixture (RTS §4.1; {@link GaussianMixture#defaults()}: modes 6 apart, widths 1 and 0.7)
 * sampled by adaptive HMC on the scalar reference backend: AIS, SMC, RTS (with TI, TI-RB, MBAR) and BAR against the
 * closed-form log Z, each within max(4·SE, 0.05) (issue 32's acceptance), the SE capped at 0.05; BAR and the other
 * work estimators, reverse chains from exact draws of the mixture, within max(4·SE, 0.1).
 */
class GmmAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();
    private static final GaussianMixture MODEL = GaussianMixture.defaults();
    private static final double BOUND = 0.05;

    @Test
    void ais() {
        try (TemperedPath path = new TemperedPath(backend, MODEL)) {
            AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(1000,
                    Schedule.linear(600), 1)).forward(path, ProgressListener.NONE);
            Accuracy.assertLands(String.format("gmm d=10: ais (1000 chains × 600 steps, %.1f s)", r.seconds()), r.logZ(),
                    r.stdErr(), MODEL.logZ(), BOUND, BOUND);
        }
    }

    @Test
    void smc() {
        List<SmcResult> runs = new ArrayList<>();
        try (TemperedPath path = new TemperedPath(backend, MODEL, 2)) {
            for (int b = 0; b < 8; b++) {
                runs.add(new SmcSampler(new SmcSampler.Settings(500, new SmcSampler.Steps.Adaptive(0.9, 5000), 0.5,
                        ResamplingScheme.RESIDUAL, Philox.replicateSeed(2, b), Method.SMC)).run(path, ProgressListener.NONE));
            }
        }
        Replicates<SmcResult> smc = Replicates.of(runs);
        Accuracy.assertLands("gmm d=10: smc (8 × 500 particles, " + runs.get(0).stepCount() + " steps)", smc.logZ(),
                smc.stdErr(), MODEL.logZ(), BOUND, BOUND);
    }

    @Test
    void temperedSampling() {
        try (TemperedPath path = new TemperedPath(backend, MODEL)) {
            TemperedResult r = new TemperedSampling(new TemperedSampling.Settings(100, Schedule.linear(49), null, 50, 6,
                    2000, 10, 10_000, 3)).run(path, ProgressListener.NONE);
            for (LevelEstimate e : r.estimates()) {
                Accuracy.assertLands(String.format("gmm d=10: %s (100 chains, 50 levels, %.1f s)", e.method(), r.seconds()),
                        e, MODEL.logZ(), BOUND, BOUND);
            }
        }
    }

    @Test
    void bidirectional() {
        try (TemperedPath path = new TemperedPath(backend, MODEL)) {
            BidirectionalResult r = new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(500, 500,
                    Schedule.linear(400), 50, 4)).run(path, new AnnealedImportanceSampling.Start.Exact(),
                    ProgressListener.NONE);
            Accuracy.assertAllLand("gmm d=10", r, MODEL.logZ(), 0.1);
        }
    }
}
