package org.logz.testkit.examples;

import org.logz.model.potts.Potts;
import org.logz.testkit.ModelExample;

/** The contracts' small Potts model: three colours on the 4 × 4 torus, heat-bath sweeps. */
public final class PottsExample implements ModelExample {
    @Override
    public Object model() {
        return new Potts(3, 4, 1.0);
    }
}
