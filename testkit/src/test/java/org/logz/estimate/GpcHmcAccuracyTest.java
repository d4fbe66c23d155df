package org.logz.estimate;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.ep.ProbitEp;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.kernel.HmcSettings;
import org.logz.model.GpClassification;
import org.logz.model.TemperedModel;
import org.logz.model.gpc.GpcExact;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.gpc.WhitenedGpc;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * GP classification by HMC in whitened coordinates (ARM Fig. 2's baselines) on the scalar reference backend against
 * the orthant closed forms (GpcExact, n = 2 and 3): AIS from EP's q with l_max = 200, ε = 0.02 and from the prior with
 * 10 steps of ε = 0.1 (the paper's settings), AIS with an adapted ε from the prior, and RTS, TI, TI-RB, MBAR from
 * EP's q with an adapted ε. Bounds max(4·SE, 0.1), the SE capped at
 * 0.1.
 */
class GpcHmcAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    private static GpClassification three() {
        return GpClassification.squaredExponential(new double[][] {{0}, {0.4}, {1.1}}, new int[] {1, -1, 1}, 0, 1.5,
                "three");
    }

    private static GpClassification two() {
        return GpClassification.squaredExponential(new double[][] {{0}, {0.3}}, new int[] {1, 1}, 0, 1.0, "two");
    }

    private static TemperedGpc path(GpClassification m, TemperedGpc.Start start) {
        if (start == TemperedGpc.Start.PRIOR) {
            return TemperedGpc.fromPrior(m);
        }
        ProbitEp.Result ep = ProbitEp.run(m, ProbitEp.Settings.defaults());
        return TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu());
    }

    private static void ais(String name, TemperedModel model, int chains, Schedule schedule, double exact, long seed) {
        try (TemperedPath path = new TemperedPath(backend, model)) {
            AnnealingResult r = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(chains, schedule,
                    seed)).forward(path, ProgressListener.NONE);
            Accuracy.assertLands(String.format("%s: ais (%d chains × %d steps, %.1f s)", name, chains, r.steps(),
                    r.seconds()), r.logZ(), r.stdErr(), exact, 0.1, 0.1);
        }
    }

    @Test
    void aisWithThePapersSettingsMatchesTheClosedForms() {
        for (GpClassification m : new GpClassification[] {two(), three()}) {
            double exact = GpcExact.logZ(m);
            TemperedGpc ep = path(m, TemperedGpc.Start.EP);
            TemperedGpc prior = path(m, TemperedGpc.Start.PRIOR);
            ais(m.name() + " hmc from ep", new WhitenedGpc(ep, WhitenedGpc.paperSettings(TemperedGpc.Start.EP)), 200,
                    Schedule.linear(30), exact, 1);
            ais(m.name() + " hmc from the prior", new WhitenedGpc(prior,
                    WhitenedGpc.paperSettings(TemperedGpc.Start.PRIOR)), 400, Schedule.parse("geometric", 200), exact, 2);
        }
    }

    @Test
    void adaptedStepsAndTemperedSamplingMatchTheClosedForm() {
        GpClassification m = three();
        double exact = GpcExact.logZ(m);
        WhitenedGpc adaptive = new WhitenedGpc(path(m, TemperedGpc.Start.PRIOR), new HmcSettings(20, 0.5, true, 0.65, true));
        ais("three hmc (adapted ε) from the prior", adaptive, 400, Schedule.parse("geometric", 200), exact, 3);
        WhitenedGpc fromEp = new WhitenedGpc(path(m, TemperedGpc.Start.EP), new HmcSettings(20, 0.5, true, 0.65, true));
        try (TemperedPath p = new TemperedPath(backend, fromEp)) {
            TemperedResult r = new TemperedSampling(new TemperedSampling.Settings(100, Schedule.linear(19), null, 20, 4,
                    1000, 10, 2000, 4)).run(p, ProgressListener.NONE);
            for (LevelEstimate e : r.estimates()) {
                Accuracy.assertLands("three hmc (adapted ε) from ep " + e.method(), e.logZ(), e.stdErr(), exact, 0.1, 0.1);
            }
        }
    }
}
