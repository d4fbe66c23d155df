package org.logz.estimate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import org.logz.io.NpyArray;
import org.logz.io.Npz;

/** The pymbar fixtures of {@code src/test/resources/org/logz/fixtures/pymbar} (tools/fixtures/make_pymbar_fixtures.py). */
public final class PymbarFixtures {
    private PymbarFixtures() {
    }

    public static Map<String, NpyArray> load(String name) {
        String resource = "/org/logz/fixtures/pymbar/" + name + ".npz";
        try (InputStream in = PymbarFixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + resource);
            }
            return Npz.read(resource, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
