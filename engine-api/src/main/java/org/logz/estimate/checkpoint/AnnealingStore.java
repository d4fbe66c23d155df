package org.logz.estimate.checkpoint;

import java.util.Optional;

/**
 * Where one annealing pass saves its state and the state it resumes from: a file of its own (ais, raise,
 * {@link Checkpointing#annealing()}) or its half of a forward and reverse run's file ({@link BidirectionalCheckpoints}).
 */
public interface AnnealingStore {
    /** The run's checkpoint settings: the file saved to and the seconds between saves, the file resumed from. */
    Checkpointing checkpointing();

    /** The state this pass resumes from, refused with the reason when it is another run's; empty for a fresh pass. */
    Optional<AnnealingState> resume(String fingerprint);

    /** Saves a state of this pass ({@code nextStep} past the last step once the pass is finished). */
    void save(AnnealingState state);

    /** Whether a finished pass saves its final state: a forward and reverse run's forward pass does, for the reverse's. */
    boolean savesFinished();
}
