package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.data.Datasets;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.RbmFiles;
import org.logz.testkit.Fixtures;
import org.logz.train.RbmTrainer;
import org.logz.train.TrainingMethod;
import org.logz.train.RbmTrainer.Observer;

/**
 * The PCD fixture is what its command in tools/models/README.md makes ({@code logz train --data digits --hidden 16
 * --method pcd --epochs 50 --seed 1}, on the CPU backend, which draws the same bits on any thread count), and its
 * exact log Z is the one listed there.
 */
class TrainedFixturesTest {
    @Test
    void thePcdDigitsFixtureIsWhatItsCommandTrains() {
        RbmFiles.RbmFile fixture = Fixtures.digits64x16Pcd();
        try (ParticleBackend cpu = CpuBackend.create(2)) {
            Rbm trained = RbmTrainer.train(Datasets.load("digits"), new RbmTrainer.Settings(16, 50,
                    TrainingMethod.parse("pcd", 100), 100, 0.05, 0.5, 1e-4, 1), cpu, Observer.NONE);
            assertArrayEquals(fixture.rbm().weights(), trained.weights());
            assertArrayEquals(fixture.rbm().visibleBias(), trained.visibleBias());
            assertArrayEquals(fixture.rbm().hiddenBias(), trained.hiddenBias());
        }
        assertEquals(53.620130, RbmEnumeration.logZ(fixture.rbm()), 5e-7);
    }
}
