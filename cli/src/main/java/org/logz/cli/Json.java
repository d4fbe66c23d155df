package org.logz.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.OptionalDouble;

import org.logz.problem.Problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

/**
 * JSON output of the commands: one record per run, written by Jackson from its components in
 * declaration order. Methods are written by their command-line names, an empty {@link OptionalDouble}
 * as null, and so is a number that is not finite (JSON has no NaN; a reader gets null, not a string).
 */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new Jdk8Module())
            .registerModule(new SimpleModule("finite-numbers").addSerializer(Double.class, new FiniteOrNull())
                    .addSerializer(double.class, new FiniteOrNull()))
            .enable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .addMixIn(Problem.Description.class, WithoutNulls.class);

    private Json() {
    }

    /** A model's description leaves out the sizes that do not apply to it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private interface WithoutNulls {
    }

    /** One estimator's reading: {@code {"logZ": ..., "stderr": ...}}. */
    record Estimate(double logZ, double stderr) {
    }

    /** One replicate of a replicated run; {@code stderr} null where the method has no single-run error. */
    record Replicate(long seed, double logZ, OptionalDouble stderr, double seconds) {
    }

    public static void print(PrintWriter out, Object report) {
        try {
            out.println(MAPPER.writeValueAsString(report));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** A double as a JSON number, or null when it is NaN or infinite. */
    private static final class FiniteOrNull extends StdSerializer<Double> {
        FiniteOrNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (Double.isFinite(value)) {
                gen.writeNumber(value);
            } else {
                gen.writeNull();
            }
        }
    }
}
