package org.logz.testkit.reference;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.BackendContracts;

/** Every contract on the reference backend, so that the contracts themselves are checked against a second implementation. */
class ReferenceContractsTest extends BackendContracts {
    @Override
    protected ParticleBackend createBackend(int threads) {
        return new ReferenceBackend();
    }
}
