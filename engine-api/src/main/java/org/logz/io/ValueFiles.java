package org.logz.io;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

import org.logz.base.UserException;
import org.logz.numeric.Decimal;

/**
 * Text files of one number per line, as NumPy's {@code savetxt} writes and {@code loadtxt} reads them:
 * work values, prior weights. A line holds one decimal number ({@code 1}, {@code -2.5}, {@code 3e-7},
 * {@code .5}); {@code #} starts a comment; blank lines are skipped; line ends may be LF or CRLF. What
 * Java alone would parse (hexadecimal {@code 0x1p3}, suffixes {@code 1.0d} and {@code 2f}), non-finite
 * values and anything else are refused with the file and line.
 */
public final class ValueFiles {
    /** A decimal float as NumPy's text readers accept it, without the non-finite spellings. */

    private ValueFiles() {
    }

    /** The values of {@code file}; at least one. */
    public static double[] read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ModelFormatException(file + ": no such file");
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read (" + e.getMessage() + ")");
        } catch (OutOfMemoryError e) {
            throw new ModelFormatException(file + ": too large to read into memory");
        }
        return parse(file.toString(), bytes);
    }

    /** Parses the bytes of a value file named {@code source} in messages. */
    public static double[] parse(String source, byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ModelFormatException(source + ": not a text file (invalid UTF-8)");
        }
        double[] values = new double[16];
        int count = 0;
        int lineNumber = 0;
        for (String raw : text.split("\n", -1)) {
            lineNumber++;
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!Decimal.hasDecimalForm(line)) {
                throw new ModelFormatException(source + ":" + lineNumber + ": '" + abbreviate(line)
                        + "' is not a decimal number (one finite value per line, as numpy.savetxt writes)");
            }
            double v = Double.parseDouble(line);
            if (!Double.isFinite(v)) {
                throw new ModelFormatException(source + ":" + lineNumber + ": " + abbreviate(line)
                        + " overflows float64");
            }
            if (count == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            values[count++] = v;
        }
        if (count == 0) {
            throw new ModelFormatException(source + ": no values");
        }
        return Arrays.copyOf(values, count);
    }

    /** Writes one value per line in Java's shortest round-trip form, atomically. */
    public static void write(Path file, double[] values) {
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new UserException(file + ": cannot write " + v + " (value files hold finite numbers)");
            }
        }
        AtomicFiles.write(file, out -> {
            StringBuilder sb = new StringBuilder();
            for (double v : values) {
                sb.append(v).append('\n');
            }
            out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        });
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
