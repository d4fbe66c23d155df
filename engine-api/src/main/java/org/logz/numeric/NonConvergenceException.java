package org.logz.numeric;

import org.logz.base.EstimationException;

/**
 * An iterative solver (a root finder, MBAR, an eigen-decomposition) that hit its iteration cap or met
 * values it cannot work with. Every solver in logz is capped, so a run ends with this instead of
 * hanging; the message names the solver and what stopped it.
 */
public final class NonConvergenceException extends EstimationException {
    public NonConvergenceException(String message) {
        super(message);
    }
}
