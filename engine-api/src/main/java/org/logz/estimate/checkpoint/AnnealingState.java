package org.logz.estimate.checkpoint;

import java.util.List;

import org.logz.estimate.TracePoint;

/**
 * An annealing run between two steps: everything the rest of the run reads. The random numbers need no state of their
 * own: every draw is Philox keyed by the seed and counted by (chain, step, stream), so the run continues from
 * {@code nextStep} with the draws it would have made.
 *
 * @param fingerprint  what the run is ({@link Checkpointing#fingerprint}): a checkpoint resumes only the same run
 * @param nextStep     the first annealing step still to do (1-based, as the schedule counts them)
 * @param states       the chains' states, row-major (chains × dimension)
 * @param logW         each chain's log importance weight so far
 * @param trace        the trace points recorded so far
 * @param transitions  the Markov transitions per chain done so far
 * @param seconds      the wall time spent so far
 * @param start        how reverse chains started (the result reports it)
 * @param burnIn       chain-transitions of a reverse start's burn-in
 * @param visitedBound a reverse run's bound from its start states (NaN for none)
 */
public record AnnealingState(String fingerprint, int nextStep, float[] states, double[] logW, List<TracePoint> trace,
                             long transitions, double seconds, String start, long burnIn, double visitedBound) {
    public AnnealingState {
        trace = List.copyOf(trace);
    }
}
