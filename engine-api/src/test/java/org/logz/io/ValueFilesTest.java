package org.logz.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValueFilesTest {
    @TempDir
    Path dir;

    private static double[] parse(String text) {
        return ValueFiles.parse("w.txt", text.getBytes(StandardCharsets.UTF_8));
    }

    /** The decimal spellings NumPy writes and reads are accepted. */
    @Test
    void acceptsDecimalNumbers() {
        assertArrayEquals(new double[] {1, -2.5e-3, 3e-7, 0.5, 5, 0.25, 7, -0.0},
                parse("1\n-2.5e-3\n3E-7\n.5\n5.\n+0.25\n  7  \n-0.0\n"));
    }

    /** numpy.savetxt's default format ({@code %.18e}) is read back exactly. */
    @Test
    void readsNumpySavetxtDefaultFormat() {
        assertArrayEquals(new double[] {1.0, -0.0025, 123456.789, 0.1}, parse("1.000000000000000000e+00\n"
                + "-2.500000000000000052e-03\n1.234567890000000043e+05\n1.000000000000000056e-01\n"));
    }

    /** Comments, blank lines, CRLF line ends and a missing final newline are all fine. */
    @Test
    void skipsCommentsBlankLinesAndCarriageReturns() {
        assertArrayEquals(new double[] {1, 2, 3}, parse("# work values\r\n1\r\n\r\n2 # second\r\n   \r\n#\r\n3"));
    }

    /** Java-only spellings (hex, d/f suffixes) are refused with the file and line number. */
    @Test
    void refusesJavaOnlySpellingsWithTheLine() {
        assertRefused("1\n0x1p3\n", "w.txt:2: '0x1p3' is not a decimal number");
        assertRefused("1.0d\n", "w.txt:1: '1.0d' is not a decimal number");
        assertRefused("# c\n\n2f\n", "w.txt:3: '2f' is not a decimal number");
    }

    /** Several values on a line, separators and stray text are refused with the line. */
    @Test
    void refusesNonNumbersWithTheLine() {
        assertRefused("1,2\n", "w.txt:1: '1,2' is not a decimal number");
        assertRefused("1\r\n1 2\r\n", "w.txt:2: '1 2'");
        assertRefused("1e\n", "w.txt:1:");
        assertRefused(".\n", "w.txt:1:");
    }

    /** Non-finite spellings (what savetxt writes for inf and nan) and overflowing values are refused. */
    @Test
    void refusesNonFiniteValues() {
        for (String s : new String[] {"inf", "-inf", "nan", "NaN", "Infinity", "-Infinity"}) {
            assertRefused("0\n" + s + "\n", "w.txt:2:");
        }
        assertRefused("1e400\n", "w.txt:1: 1e400 overflows float64");
    }

    /** Bytes that are not UTF-8 are refused as not text, naming the file. */
    @Test
    void refusesInvalidUtf8() {
        byte[] bytes = {'1', '\n', (byte) 0xC3, (byte) 0x28, '\n'};
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> ValueFiles.parse("w.txt", bytes));
        assertTrue(e.getMessage().startsWith("w.txt: ") && e.getMessage().contains("invalid UTF-8"), e.getMessage());
    }

    /** A file with no values, only comments and blank lines, is refused. */
    @Test
    void refusesAFileWithoutValues() {
        assertRefused("", "w.txt: no values");
        assertRefused("# nothing\n\n", "w.txt: no values");
    }

    /** Long lines are abbreviated in the message. */
    @Test
    void abbreviatesLongLines() {
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> parse("x".repeat(500)));
        assertTrue(e.getMessage().contains("'" + "x".repeat(37) + "...'"), e.getMessage());
    }

    /** A long line of digits with a bad tail is refused in linear time (no regex backtracking blow-up). */
    @Test
    void longBadLineIsRefusedQuickly() {
        String line = "1".repeat(50_000) + "x";
        assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(ModelFormatException.class, () -> parse(line)));
    }

    /** Write then read gives back every double bit for bit, extremes and signed zero included. */
    @Test
    void writeThenReadIsBitExact() {
        double[] values = {0.1, -0.0, 0.0, Math.PI, Math.nextUp(1.0), Double.MIN_VALUE, Double.MIN_NORMAL,
            Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, 123456789.123456789, 1e22, 1e23, -7};
        Path file = dir.resolve("values.txt");
        ValueFiles.write(file, values);
        double[] read = ValueFiles.read(file);
        assertEquals(values.length, read.length);
        for (int i = 0; i < values.length; i++) {
            assertEquals(Double.doubleToRawLongBits(values[i]), Double.doubleToRawLongBits(read[i]), "value " + i);
        }
    }

    /** A missing file is a format error naming the file. */
    @Test
    void missingFileIsNamed() {
        Path absent = dir.resolve("absent.txt");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> ValueFiles.read(absent));
        assertEquals(absent + ": no such file", e.getMessage());
    }

    /** Reading goes through the file system with the same rules as parsing. */
    @Test
    void readsAFileWithCrlf() throws IOException {
        Path file = dir.resolve("crlf.txt");
        Files.write(file, "4\r\n5\r\n".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(new double[] {4, 5}, ValueFiles.read(file));
    }

    private static void assertRefused(String text, String fragment) {
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> parse(text));
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
    }
}
