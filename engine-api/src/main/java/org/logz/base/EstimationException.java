package org.logz.base;

/** A run that produced no usable estimate (all weights zero, a non-finite value); the message says why. */
public class EstimationException extends IllegalStateException {
    public EstimationException(String message) {
        super(message);
    }
}
