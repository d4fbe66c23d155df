package org.logz.model.potts;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.BidirectionalAnnealing;
import org.logz.estimate.Method;
import org.logz.estimate.Replicates;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.ParallelTempering;
import org.logz.estimate.tempered.PtResult;
import org.logz.estimate.tempered.TemperedSampling;
import org.logz.path.TemperedPath;
import org.logz.random.Philox;
import org.logz.resample.ResamplingScheme;
import org.logz.schedule.Schedule;
import org.logz.testkit.Accuracy;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * Every method family on the Potts model, on the scalar reference backend, against the transfer matrix: AIS and RAISE,
 * the nonequilibrium estimators from ground-state reverse starts, RTS/TI/TI-RB/MBAR, the SMC sampler over replicates
 * and parallel tempering, each within max(4 SE, 0.1) with its SE capped; three colours on the 4 × 4 torus at J = 2
 * (β J = 2 > 1.005: ordered at β = 1) with heat-bath and Metropolis sweeps, and Habeck's ten colours at J = 2 on 4 × 4.
 */
class PottsAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    @Test
    void annealingOnThreeColours() {
        for (Potts.Moves moves : Potts.Moves.values()) {
            Potts model = new Potts(3, 4, 2, moves);
            double exact = PottsExact.logZ(model);
            try (TemperedPath path = new TemperedPath(backend, model, 1)) {
                AnnealedImportanceSampling ais = new AnnealedImportanceSampling(new AnnealedImportanceSampling.Settings(200,
                        Schedule.linear(300), 1));
                Accuracy.assertLands("potts q=3 " + moves, ais.forward(path, ProgressListener.NONE), exact, 0.1);
                Accuracy.assertLands("potts q=3 " + moves, ais.reverse(path, new Start.Given(model.groundStates(200), "ground",
                        20), ProgressListener.NONE), exact, 0.1);
            }
        }
    }

    @Test
    void nonequilibriumEstimatorsOnTenColours() {
        Potts model = new Potts(10, 4, 2);
        try (TemperedPath path = new TemperedPath(backend, model, 1)) {
            Accuracy.assertAllLand("potts q=10", new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(200, 200,
                    Schedule.linear(400), 100, 3)).run(path, new Start.Given(model.groundStates(200), "ground", 20),
                    ProgressListener.NONE), PottsExact.logZ(model), 0.1);
        }
    }

    @Test
    void temperedSamplingOnThreeColours() {
        Potts model = new Potts(3, 4, 2);
        try (TemperedPath path = new TemperedPath(backend, model, 1)) {
            Accuracy.assertAllLand("potts q=3", new TemperedSampling(new TemperedSampling.Settings(100, Schedule.linear(59),
                    null, 50, 6, 2000, 10, 10_000, 4)).run(path, ProgressListener.NONE), PottsExact.logZ(model), 0.1);
        }
    }

    /** Eight replicates of the adaptive SMC sampler: log mean Ẑ, its SE from their spread. */
    @Test
    void smcOnThreeColours() {
        Potts model = new Potts(3, 4, 2);
        List<SmcResult> runs = new ArrayList<>();
        try (TemperedPath path = new TemperedPath(backend, model, 2)) {
            for (int b = 0; b < 8; b++) {
                runs.add(new SmcSampler(new SmcSampler.Settings(200, new SmcSampler.Steps.Adaptive(0.99, 2000), 0.5,
                        ResamplingScheme.MULTINOMIAL, Philox.replicateSeed(5, b), Method.SMC)).run(path, ProgressListener.NONE));
            }
        }
        Replicates<SmcResult> smc = Replicates.of(runs);
        Accuracy.assertLands("potts q=3 smc (log mean Ẑ of " + runs.size() + ")", smc.logZ(), smc.stdErr(),
                PottsExact.logZ(model), 0.1, 0.1);
    }

    @Test
    void parallelTemperingOnThreeColours() {
        Potts model = new Potts(3, 4, 2);
        double exact = PottsExact.logZ(model);
        try (TemperedPath path = new TemperedPath(backend, model)) {
            PtResult r = new ParallelTempering(new ParallelTempering.Settings(10, Schedule.linear(47), 5, 50, 2000, 10_000, 4))
                    .run(path, ProgressListener.NONE);
            for (LevelEstimate e : r.estimates()) {
                Accuracy.assertLands("potts q=3 pt " + e.method(), e.logZ(), e.stdErr(), exact, 0.1, 0.1);
            }
        }
    }
}
