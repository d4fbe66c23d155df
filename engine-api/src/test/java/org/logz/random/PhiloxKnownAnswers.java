package org.logz.random;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Random123's known answers of Philox4x32-10 (DESIGN §3), read from their one copy, the resource
 * {@code org/logz/random/philox-kat.txt}; the Java test and the CUDA backend's tests check them.
 */
public final class PhiloxKnownAnswers {
    /** One line: counter {@code c0..c3}, key {@code k0, k1} and the four output words. */
    public record Vector(int[] counter, int k0, int k1, int[] expected) {
        /** The six input words c0 c1 c2 c3 k0 k1, as the CUDA test kernel reads them. */
        public int[] input() {
            return new int[] {counter[0], counter[1], counter[2], counter[3], k0, k1};
        }
    }

    private PhiloxKnownAnswers() {
    }

    /** Every vector of the file, in its order. */
    public static List<Vector> all() {
        try (InputStream in = PhiloxKnownAnswers.class.getResourceAsStream("philox-kat.txt")) {
            if (in == null) {
                throw new IllegalStateException("org/logz/random/philox-kat.txt is not on the class path");
            }
            List<Vector> vectors = new ArrayList<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    vectors.add(parse(line));
                }
            }
            return vectors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Vector parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length != 12 || !f[0].equals("philox4x32") || !f[1].equals("10")) {
            throw new IllegalStateException("not a philox4x32 10 known answer: " + line);
        }
        int[] w = new int[10];
        for (int k = 0; k < 10; k++) {
            w[k] = Integer.parseUnsignedInt(f[k + 2], 16);
        }
        return new Vector(new int[] {w[0], w[1], w[2], w[3]}, w[4], w[5], new int[] {w[6], w[7], w[8], w[9]});
    }
}
