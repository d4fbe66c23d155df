package org.logz.cpu;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.logz.backend.ParticleBackend;

/** Base of the accuracy tests: one two-thread CPU backend for all tests of a class. */
abstract class SharedCpuBackend {
    protected static ParticleBackend backend;

    @BeforeAll
    static void openBackend() {
        backend = CpuBackend.create(2);
    }

    @AfterAll
    static void closeBackend() {
        backend.close();
    }
}
