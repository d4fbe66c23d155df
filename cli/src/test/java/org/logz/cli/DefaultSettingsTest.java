package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code logz estimate --model M.npz} with nothing else lands within 1 nat of the exact log Z on RBMs
 * that scikit-learn's BernoulliRBM trained on real data (tools/models/make_sklearn_rbms.py; their
 * files hold no a0, so the default base rate is the model's own). Before the model base rate the
 * default (uniform) missed the 784×20 MNIST models by 72 and 84 nats with ESS near 1.
 */
class DefaultSettingsTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "sklearn-mnist-784x20.npz, 300.09082690464544",
            "sklearn-mnist-784x20-hard.npz, 253.50493226657326",
            "sklearn-mnist-784x12.npz, 217.23230996741998",
            "sklearn-digits-64x16.npz, 58.79201964364602",
            "sklearn-digits-64x24.npz, 63.915764917251394"})
    void defaultsLandWithinOneNat(String file, double exact) throws IOException {
        Cli.Outcome o = Cli.run("estimate", "--model", TrustTest.sklearnFixture(file).toString(), "--json");
        assertEquals(0, o.code(), o.err());
        JsonNode json = o.json();
        assertTrue(json.get("baseRate").asText().startsWith("model"), json.get("baseRate").asText());
        double error = json.get("logZ").asDouble() - exact;
        assertTrue(Math.abs(error) < 1, file + ": default estimate off by " + error);
    }
}
