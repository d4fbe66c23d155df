package org.logz.estimate.checkpoint;

import java.util.Optional;

/**
 * A forward and reverse annealing run (bar, cumulant, histogram) between two steps: the forward pass's state (finished,
 * {@code nextStep} past its last step, once the reverse pass runs) and, once it has begun, the reverse pass's.
 */
public record BidirectionalState(AnnealingState forward, Optional<AnnealingState> reverse) {
}
