package org.logz.model.rbm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.io.Npz;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;

class RbmFilesTest {
    @TempDir
    Path dir;

    @Test
    void roundTripKeepsEveryValueAndTheBaseRate() {
        Rbm rbm = RandomRbm.create(7, 3, 2.0, 5);
        BaseRate base = BaseRate.of(new float[] {-1, 0, 1, 2, 3, -4, 0.5f}, "test");
        Path file = dir.resolve("m.npz");
        RbmFiles.write(file, rbm, Optional.of(base));
        RbmFiles.RbmFile read = RbmFiles.read(file);
        assertArrayEquals(rbm.weights(), read.rbm().weights());
        assertArrayEquals(rbm.visibleBias(), read.rbm().visibleBias());
        assertArrayEquals(rbm.hiddenBias(), read.rbm().hiddenBias());
        assertArrayEquals(base.logOdds(), read.baseRate().orElseThrow().logOdds());
        RbmFiles.write(file, rbm, Optional.empty());
        assertFalse(RbmFiles.read(file).baseRate().isPresent());
    }

    @Test
    void readsFloat64FortranOrderAsNumpyWritesIt() throws IOException {
        // W = [[1, 2, 3], [4, 5, 6]] stored column-major
        double[] columnMajor = {1, 4, 2, 5, 3, 6};
        Path file = zip("f.npz",
                npy("W", "<f8", true, "(2, 3)", doubles(columnMajor, ByteOrder.LITTLE_ENDIAN)),
                npy("a", "<f8", false, "(2,)", doubles(new double[] {0.5, -0.5}, ByteOrder.LITTLE_ENDIAN)),
                npy("b", ">f8", false, "(3,)", doubles(new double[] {1, 2, 3}, ByteOrder.BIG_ENDIAN)));
        Rbm rbm = RbmFiles.read(file).rbm();
        assertEquals(2, rbm.visible());
        assertEquals(3, rbm.hidden());
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, rbm.weights());
        assertArrayEquals(new float[] {1, 2, 3}, rbm.hiddenBias());
    }

    @Test
    void readsScikitLearnNames() {
        Rbm rbm = RandomRbm.create(4, 2, 1.0, 3);
        float[] w = rbm.weights();
        float[] components = new float[8];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 2; j++) {
                components[j * 4 + i] = w[i * 2 + j];
            }
        }
        Path file = dir.resolve("sk.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("components_", new int[] {2, 4}, components),
                NpyArray.ofFloats("intercept_visible_", new int[] {4}, rbm.visibleBias()),
                NpyArray.ofFloats("intercept_hidden_", new int[] {2}, rbm.hiddenBias())));
        Rbm read = RbmFiles.read(file).rbm();
        assertArrayEquals(rbm.weights(), read.weights());
        assertArrayEquals(rbm.visibleBias(), read.visibleBias());
    }

    @Test
    void missingArrayIsNamed() {
        Path file = dir.resolve("m.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {2, 2}, new float[4]),
                NpyArray.ofFloats("a", new int[] {2}, new float[2])));
        assertMessage(file, "missing array b");
        Npz.write(file, List.of(NpyArray.ofFloats("V", new int[] {2, 2}, new float[4])));
        assertMessage(file, "no weight matrix");
    }

    @Test
    void wrongShapesAreExplained() {
        Path file = dir.resolve("m.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {3, 2}, new float[6]),
                NpyArray.ofFloats("a", new int[] {2}, new float[2]), NpyArray.ofFloats("b", new int[] {2}, new float[2])));
        assertMessage(file, "a has shape (2,), expected (3,) to match the visible units");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {6}, new float[6]),
                NpyArray.ofFloats("a", new int[] {2}, new float[2]), NpyArray.ofFloats("b", new int[] {2}, new float[2])));
        assertMessage(file, "W has shape (6,), expected a matrix");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {3, 2}, new float[6]),
                NpyArray.ofFloats("a", new int[] {3}, new float[3]), NpyArray.ofFloats("b", new int[] {2}, new float[2]),
                NpyArray.ofFloats("a0", new int[] {2}, new float[2])));
        assertMessage(file, "a0 has shape (2,)");
    }

    @Test
    void columnVectorsAreAccepted() {
        Path file = dir.resolve("m.npz");
        Npz.write(file, List.of(NpyArray.ofFloats("W", new int[] {3, 2}, new float[6]),
                NpyArray.ofFloats("a", new int[] {3, 1}, new float[3]), NpyArray.ofFloats("b", new int[] {1, 2}, new float[2])));
        assertEquals(3, RbmFiles.read(file).rbm().visible());
    }

    @Test
    void integerWeightsAreTheWrongDtype() throws IOException {
        Path file = zip("i.npz", npy("W", "<i4", false, "(1, 1)", new byte[4]),
                npy("a", "<f4", false, "(1,)", new byte[4]), npy("b", "<f4", false, "(1,)", new byte[4]));
        assertMessage(file, "W has dtype <i4, expected float32 or float64");
    }

    @Test
    void nonFiniteAndOverflowingValuesAreRejected() throws IOException {
        Path file = zip("n.npz", npy("W", "<f8", false, "(1, 2)", doubles(new double[] {0, Double.NaN}, ByteOrder.LITTLE_ENDIAN)),
                npy("a", "<f4", false, "(1,)", new byte[4]), npy("b", "<f4", false, "(2,)", new byte[8]));
        assertMessage(file, "W holds NaN at flat index 1");
        file = zip("o.npz", npy("W", "<f8", false, "(1, 1)", doubles(new double[] {1e300}, ByteOrder.LITTLE_ENDIAN)),
                npy("a", "<f4", false, "(1,)", new byte[4]), npy("b", "<f4", false, "(1,)", new byte[4]));
        assertMessage(file, "overflows float32");
    }

    @Test
    void truncatedAndForeignFilesAreClearErrors() throws IOException {
        Path good = dir.resolve("g.npz");
        RbmFiles.write(good, RandomRbm.create(30, 20, 1.0, 1), Optional.empty());
        byte[] bytes = Files.readAllBytes(good);
        Path truncated = dir.resolve("t.npz");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> RbmFiles.read(truncated));
        assertTrue(e.getMessage().startsWith(truncated.toString()), e.getMessage());

        Path text = dir.resolve("x.npz");
        Files.writeString(text, "hello, not a zip");
        assertMessage(text, "not a .npz archive");
        assertMessage(dir.resolve("absent.npz"), "no such file");

        Path shortData = zip("s.npz", npy("W", "<f4", false, "(10, 10)", new byte[12]),
                npy("a", "<f4", false, "(10,)", new byte[40]), npy("b", "<f4", false, "(10,)", new byte[40]));
        assertMessage(shortData, "truncated data (12 of 400 bytes)");
        Path badMagic = zip("m.npz", new Member("W", "garbage!!".getBytes(StandardCharsets.US_ASCII)));
        assertMessage(badMagic, "not a .npy array");
    }

    @Test
    void hugeClaimedShapesAreRefusedBeforeAllocating() throws IOException {
        Path file = zip("h.npz", npy("W", "<f8", false, "(100000, 100000)", new byte[8]));
        assertMessage(file, "too large");
    }

    @Test
    void writeIsAtomic() {
        Path target = dir.resolve("no-such-dir").resolve("m.npz");
        Rbm rbm = RandomRbm.create(3, 2, 1.0, 1);
        assertThrows(ModelFormatException.class, () -> RbmFiles.write(target, rbm, Optional.empty()));
        assertFalse(Files.exists(target));
    }

    private static void assertMessage(Path file, String fragment) {
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> RbmFiles.read(file));
        assertTrue(e.getMessage().contains(fragment), "message '" + e.getMessage() + "' lacks '" + fragment + "'");
    }

    private record Member(String name, byte[] bytes) {
    }

    private Path zip(String name, Member... members) throws IOException {
        Path file = dir.resolve(name);
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            for (Member member : members) {
                zip.putNextEntry(new ZipEntry(member.name() + ".npy"));
                zip.write(member.bytes());
                zip.closeEntry();
            }
        }
        return file;
    }

    private static Member npy(String name, String descr, boolean fortran, String shape, byte[] data) {
        String dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape
                + ", }";
        String header = dict + " ".repeat((64 - (10 + dict.length() + 1) % 64) % 64) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        out.write(header.length() & 0xFF);
        out.write(header.length() >>> 8);
        out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(data);
        return new Member(name, out.toByteArray());
    }

    private static byte[] doubles(double[] values, ByteOrder order) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * 8).order(order);
        for (double v : values) {
            buf.putDouble(v);
        }
        return buf.array();
    }
}
