package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.NpyArray;
import org.logz.io.Npz;

/**
 * The hostile review's def_ti_sk_d16_x3: on a cold 64×16 RBM (the sklearn digits fixture, every parameter ×3) tempered
 * sampling's TI and TI-RB at the defaults sat 3.4 to 4.9 batch-means errors below the exact log Z (seeds 1, 2 and 4),
 * their trapezoid's error unseen; extrapolated at β = 1 they land within three.
 */
class TemperedQuadratureTest {
    @TempDir
    Path dir;

    /** The sklearn digits fixture (64×16) with every parameter multiplied by 3: cold, its exact log Z 150.2325. */
    static Path coldRbm(Path dir) throws IOException {
        Path cold = dir.resolve("cold.npz");
        Map<String, NpyArray> arrays;
        try (InputStream in = Files.newInputStream(TrustTest.sklearnFixture("sklearn-digits-64x16.npz"))) {
            arrays = Npz.read("sklearn-digits-64x16", in);
        }
        List<NpyArray> scaled = new ArrayList<>();
        arrays.forEach((name, a) -> {
            double[] v = a.toDoubles();
            for (int i = 0; i < v.length; i++) {
                v[i] *= 3;
            }
            scaled.add(NpyArray.ofDoubles(name, a.shape(), v));
        });
        Npz.write(cold, scaled);
        return cold;
    }

    @Test
    void tiAtTheDefaultsLandsOnAColdRbm() throws IOException {
        Path cold = coldRbm(dir);
        Cli.Outcome exact = Cli.run("exact", "--model", cold.toString());
        assertEquals(0, exact.code(), exact.err());
        double logZ = exact.json().get("logZ").asDouble();
        for (String seed : new String[] {"1", "2", "4"}) {
            Cli.Outcome o = Cli.run("estimate", "--model", cold.toString(), "--method", "ti", "--seed", seed, "--json");
            assertEquals(0, o.code(), o.err());
            JsonNode estimates = o.json().get("estimates");
            for (String method : new String[] {"ti", "ti-rb"}) {
                JsonNode e = estimates.get(method);
                double z = (e.get("logZ").asDouble() - logZ) / e.get("stderr").asDouble();
                assertTrue(Math.abs(z) < 3, method + " seed " + seed + ": z " + z + " against exact " + logZ);
            }
        }
    }
}
