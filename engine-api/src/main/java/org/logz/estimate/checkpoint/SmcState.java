package org.logz.estimate.checkpoint;

import java.util.List;

import org.logz.estimate.smc.SmcTracePoint;

/**
 * An SMC sampler run (smc, power-posterior, power-posterior-corrected) between two steps: everything the rest of the
 * run reads. Its draws are Philox keyed by the seed and counted by step, and the next inverse temperature is a
 * function of the particles and weights, so the run continues from {@code nextStep} with the choices and draws it
 * would have made.
 *
 * @param fingerprint   what the run is ({@link Checkpointing#fingerprint})
 * @param nextStep      the first step still to do
 * @param beta          the inverse temperature reached
 * @param states        the particles' states, row-major
 * @param logW          their log weights since the last resampling
 * @param resampledLogZ the log Z increments of the resamplings so far
 * @param trace         the steps so far
 * @param slopeChange   the power-posterior integrand's derivative at every β so far
 * @param resamplings   resampling events so far
 * @param transitions   particle transitions so far
 * @param eve           each particle's first-generation ancestor (multinomial resampling; empty otherwise)
 * @param seconds       the wall time spent so far
 */
public record SmcState(String fingerprint, int nextStep, double beta, float[] states, double[] logW, double resampledLogZ,
                       List<SmcTracePoint> trace, double[] slopeChange, int resamplings, long transitions, int[] eve,
                       double seconds) {
    public SmcState {
        trace = List.copyOf(trace);
    }
}
