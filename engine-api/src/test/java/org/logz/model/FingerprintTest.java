package org.logz.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.latent.StochasticVolatility;
import org.logz.model.rbm.TemperedRbm;

/**
 * What identifies a model in a checkpoint is its content, digested: two models that differ anywhere never share a
 * fingerprint, and the same numbers under another name do (issue 37, R3).
 */
class FingerprintTest {
    private static TemperedRbm rbm(float w0, float w1) {
        Rbm rbm = new Rbm(1, 2, new float[] {w0, w1}, new float[] {0}, new float[] {0, 0});
        return new TemperedRbm(rbm, BaseRate.uniform(1));
    }

    /** The hostile QA's pair: weights with one 32-bit Arrays.hashCode, whose checkpoints used to resume each other. */
    @Test
    void rbmsWithOneArraysHashCodeDiffer() {
        float w0 = 0.5f;
        float w1 = 8f;
        // Arrays.hashCode of two floats is 31 (31 + bits0) + bits1: one more in bits0 and 31 fewer in bits1 keep it
        float v0 = Float.intBitsToFloat(Float.floatToIntBits(w0) + 1);
        float v1 = Float.intBitsToFloat(Float.floatToIntBits(w1) - 31);
        assertEquals(Arrays.hashCode(new float[] {w0, w1}), Arrays.hashCode(new float[] {v0, v1}));
        assertNotEquals(rbm(w0, w1).fingerprint(), rbm(v0, v1).fingerprint());
        assertEquals(rbm(w0, w1).fingerprint(), rbm(w0, w1).fingerprint());
    }

    /** A GP classifier's data copied to another file name is the same run. */
    @Test
    void aClassifierIsItsNumbersNotItsName() {
        double[] k = {1, 0.5, 0.5, 1};
        int[] labels = {1, -1};
        String a = TemperedGpc.fromPrior(new GpClassification(k, labels, "a.npz")).fingerprint();
        String copy = TemperedGpc.fromPrior(new GpClassification(k.clone(), labels.clone(), "copy-of-a.npz")).fingerprint();
        String other = TemperedGpc.fromPrior(new GpClassification(new double[] {1, 0.4, 0.4, 1}, labels, "a.npz")).fingerprint();
        assertEquals(a, copy);
        assertNotEquals(a, other);
    }

    @Test
    void latentModelsAreTheirData() {
        assertEquals(new StochasticVolatility(new double[] {0.1, -0.2}, "x").fingerprint(),
                new StochasticVolatility(new double[] {0.1, -0.2}, "y").fingerprint());
        assertNotEquals(new StochasticVolatility(new double[] {0.1, -0.2}, "x").fingerprint(),
                new StochasticVolatility(new double[] {0.1, -0.20000000000000004}, "x").fingerprint());
    }
}
