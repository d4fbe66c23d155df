package org.logz.estimate.checkpoint;

import java.util.Optional;

/**
 * The checkpoints of a forward and reverse annealing run (bar, cumulant, histogram) in one file
 * ({@link BidirectionalState}): the forward pass saves its states and, when it finishes, its final one; the reverse
 * pass saves its states together with that final forward state. A resumed run finds the forward pass finished or not,
 * and the reverse pass begun or not, and continues with the draws of the uninterrupted run.
 */
public final class BidirectionalCheckpoints {
    private final Checkpointing checkpoints;
    private final Optional<BidirectionalState> resumed;
    private AnnealingState forward;

    public BidirectionalCheckpoints(Checkpointing checkpoints) {
        this.checkpoints = checkpoints;
        this.resumed = checkpoints.resume() == null ? Optional.empty()
                : Optional.of(CheckpointFiles.readBidirectional(checkpoints.resume()));
    }

    /** The forward pass's store. */
    public AnnealingStore forward() {
        return new Half("forward pass") {
            @Override
            public Optional<AnnealingState> resume(String fingerprint) {
                return checked(resumed.map(BidirectionalState::forward), fingerprint);
            }

            @Override
            public void save(AnnealingState state) {
                forward = state;
                // resumed in its reverse pass, the forward pass only finishes again: the file keeps the reverse's progress
                if (resumed.flatMap(BidirectionalState::reverse).isEmpty()) {
                    CheckpointFiles.write(checkpoints.save(), new BidirectionalState(state, Optional.empty()));
                }
            }

            @Override
            public boolean savesFinished() {
                return true;
            }
        };
    }

    /** The reverse pass's store; its saves need the forward pass finished first. */
    public AnnealingStore reverse() {
        return new Half("reverse pass") {
            @Override
            public Optional<AnnealingState> resume(String fingerprint) {
                return checked(resumed.flatMap(BidirectionalState::reverse), fingerprint);
            }

            @Override
            public void save(AnnealingState state) {
                if (forward == null) {
                    throw new IllegalStateException("the reverse pass saves before the forward pass finished");
                }
                CheckpointFiles.write(checkpoints.save(), new BidirectionalState(forward, Optional.of(state)));
            }

            @Override
            public boolean savesFinished() {
                return false;
            }
        };
    }

    /** What both halves share. */
    private abstract class Half implements AnnealingStore {
        private final String pass;

        Half(String pass) {
            this.pass = pass;
        }

        @Override
        public Checkpointing checkpointing() {
            return checkpoints;
        }

        Optional<AnnealingState> checked(Optional<AnnealingState> state, String fingerprint) {
            state.ifPresent(s -> checkpoints.requireSameRun(s.fingerprint(), fingerprint, pass));
            return state;
        }
    }
}
