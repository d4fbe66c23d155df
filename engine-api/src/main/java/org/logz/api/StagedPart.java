package org.logz.api;

import org.logz.estimate.tempered.StageResult;
import org.logz.estimate.tempered.TemperedPart;

/**
 * A chain part of a tempered sampling run between stages ({@link Estimation#runStage}): the part, its state after the
 * last stage it ran (null before the first), and what that stage returned (null before the first).
 */
public record StagedPart(ChainPart part, TemperedPart.State state, StageResult result) {
    /** The part before its first stage. */
    public static StagedPart of(ChainPart part) {
        return new StagedPart(part, null, null);
    }
}
