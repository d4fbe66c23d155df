package org.logz.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.OptionalDouble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

/**
 * JSON output of the commands: one object per run, field order as built. Result records (trace
 * points, warnings) and the records below are written by Jackson from their components; an empty
 * {@link OptionalDouble} is written as null.
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new Jdk8Module())
            .enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** One estimator's reading: {@code {"logZ": ..., "stderr": ...}}. */
    record Estimate(double logZ, double stderr) {
    }

    /** One replicate of a replicated run; {@code stderr} null where the method has no single-run error. */
    record Replicate(long seed, double logZ, OptionalDouble stderr, double seconds) {
    }

    static void print(PrintWriter out, Map<String, ?> object) {
        try {
            out.println(MAPPER.writeValueAsString(object));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }
}
