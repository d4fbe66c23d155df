package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.random.StreamTag;

/**
 * Every native instruction set against the Java path (DESIGN §4 "CPU kernels"): the same bits for the products
 * (dense and sparse states, binary and not),
 * the draws (including those the kernels list as ambiguous, and a call with more of them than the list holds), an
 * AIS step's weights and draws, and the all-level densities, over odd sizes, partial rows, products over a prefix of
 * the units, hidden layers past one renormalization span and ladders shorter and longer than a register.
 */
class NativeKernelsTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        int[][] shapes = {{37, 13}, {97, 61}, {64, 300}, {5, 4100}};
        for (int isa = CpuNative.GENERIC; isa <= CpuNative.AVX512; isa++) {
            for (int[] shape : shapes) {
                out.add(Arguments.of(isa, shape[0], shape[1]));
            }
        }
        return out;
    }

    private Tile tile(int rows, int cols, SplittableRandom random, boolean binary) {
        return tile(rows, cols, random, binary ? 0.4 : -1);
    }

    /**
     * Binary entries on with probability {@code density}; for a negative density, Gaussian entries with probability
     * {@code -density} (the sparse product multiplies binary rows by adds, others by fma).
     */
    private Tile tile(int rows, int cols, SplittableRandom random, double density) {
        Tile t = new Tile(rows, cols);
        open.add(t::close);
        for (int i = 0; i < rows * cols; i++) {
            boolean on = random.nextDouble() < Math.abs(density);
            t.buffer.put(i, !on ? 0f : density >= 0 ? 1f : (float) (random.nextGaussian() * 3));
        }
        return t;
    }

    private static float[] contents(Tile t) {
        float[] out = new float[t.buffer.capacity()];
        t.buffer.get(0, out);
        return out;
    }

    /** Runs the same operation on copies of one input with both arithmetics and compares the outputs' bits. */
    private void sameBits(RbmMath nativeMath, RbmMath javaMath, Tile input, Consumer<RbmMath> operation, Tile output,
                          String what) {
        float[] before = contents(output);
        float[] in = contents(input);
        operation.accept(javaMath);
        float[] expected = contents(output);
        output.buffer.put(0, before);
        input.buffer.put(0, in);
        operation.accept(nativeMath);
        assertArrayEquals(expected, contents(output), what);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyKernelGivesTheJavaPathsBits(int isa, int n, int h) {
        assumeTrue(CpuNative.loadError().isEmpty(), CpuNative.loadError());
        assumeTrue(isa <= CpuNative.best(), "this machine does not run " + CpuNative.name(isa));
        Rbm rbm = RandomRbm.create(n, h, 1.5, 17L * n + h);
        float[] a0 = RandomRbm.create(n, 1, 2.0, 5).visibleBias();
        NativeRbmMath nativeMath = new NativeRbmMath(rbm, a0, isa);
        JavaRbmMath javaMath = new JavaRbmMath(rbm, a0);
        open.add(nativeMath);
        SplittableRandom random = new SplittableRandom(n * 31L + h);
        int rows = 53;
        int from = 3;
        int to = 50;
        Tile x = tile(rows, n, random, true);
        Tile hid = tile(rows, h, random, true);
        Tile u = tile(rows, h, random, false);
        Tile v = tile(rows, n, random, false);
        float[] beta = new float[rows];
        for (int r = 0; r < rows; r++) {
            beta[r] = r % 5 == 0 ? 1f : random.nextFloat();
        }
        int active = Math.max(1, n - 7);
        String at = CpuNative.name(isa) + " " + n + "×" + h;

        // dense and sparse states (the kernels multiply them two ways, sparse up to density 0.5), binary and not
        for (double density : new double[] {0.6, 0.45, 0.08, -1, -0.08}) {
            Tile xs = tile(rows, n, random, density);
            Tile hs = tile(rows, h, random, density);
            String d = " at density " + density + " " + at;
            sameBits(nativeMath, javaMath, xs, m -> m.productXw(xs, from, to, n, u), u, "X W" + d);
            sameBits(nativeMath, javaMath, xs, m -> m.productXw(xs, from, to, active, u), u, "X W over a prefix" + d);
            sameBits(nativeMath, javaMath, hs, m -> m.productHwt(hs, from, to, n, v), v, "H Wᵀ" + d);
            sameBits(nativeMath, javaMath, hs, m -> m.productHwt(hs, from, to, active, v), v, "H Wᵀ, first units" + d);
        }
        for (boolean withBias : new boolean[] {false, true}) {
            sameBits(nativeMath, javaMath, u, m -> m.sampleHidden(u, withBias, from, to, beta, 7, 11, 3, StreamTag.HIDDEN,
                    hid), hid, "hidden draws " + at);
        }
        sameBits(nativeMath, javaMath, v, m -> m.sampleVisible(v, from, to, active, beta, 7, 11, 4, StreamTag.VISIBLE, x),
                x, "visible draws " + at);

        double[][] logW = new double[2][rows];
        for (int k = 0; k < 2; k++) {
            RbmMath m = k == 0 ? javaMath : nativeMath;
            logW[k][7] = -2.5;
            m.anneal(u, x, from, to, 0.25, 0.75, false, 7, 11, 5, StreamTag.HIDDEN, logW[k], 0, hid);
        }
        assertArrayEquals(logW[0], logW[1], "AIS weights " + at);
        double[][] drawn = new double[2][rows];
        sameBits(nativeMath, javaMath, u, m -> m.anneal(u, x, from, to, 0.3, 0.31, true, 7, 11, 6, StreamTag.HIDDEN,
                drawn[m == javaMath ? 0 : 1], 0, hid), hid, "AIS draws " + at);
        assertArrayEquals(drawn[0], drawn[1], "AIS weights with draws " + at);

        for (int levels : new int[] {1, 3, 16, 21, 100}) {
            double[] ladder = new double[levels];
            for (int k = 0; k < levels; k++) {
                ladder[k] = levels == 1 ? 0.6 : (k == levels - 1 ? -0.2 : (double) k / (levels - 1));
            }
            double[][] logF = new double[2][rows * levels];
            double[][] slope = new double[2][rows * levels];
            javaMath.levels(u, x, from, to, ladder, levels, logF[0], slope[0], 0);
            nativeMath.levels(u, x, from, to, ladder, levels, logF[1], slope[1], 0);
            assertArrayEquals(logF[0], logF[1], "log f at " + levels + " levels " + at);
            assertArrayEquals(slope[0], slope[1], "slopes at " + levels + " levels " + at);
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void drawsTheKernelsCannotProveAreTheJavaPathsToo(int isa, int n, int h) {
        assumeTrue(CpuNative.loadError().isEmpty(), CpuNative.loadError());
        assumeTrue(isa <= CpuNative.best(), "this machine does not run " + CpuNative.name(isa));
        Rbm rbm = RandomRbm.create(n, h, 1.0, 3);
        float[] a0 = new float[n];
        NativeRbmMath nativeMath = new NativeRbmMath(rbm, a0, isa);
        JavaRbmMath javaMath = new JavaRbmMath(rbm, a0);
        open.add(nativeMath);
        SplittableRandom random = new SplittableRandom(9);
        int rows = 64;
        Tile field = tile(rows, h, random, false);
        Tile out = tile(rows, h, random, true);
        float[] beta = new float[rows];
        java.util.Arrays.fill(beta, 1f);
        // NaN fields are always listed; a few rows of them stay within the list, every row of them overflows it
        for (int nanRows : new int[] {2, rows}) {
            for (int r = 0; r < nanRows; r++) {
                for (int j = 0; j < h; j += 3) {
                    field.buffer.put(r * h + j, Float.NaN);
                }
            }
            sameBits(nativeMath, javaMath, field, m -> m.sampleHidden(field, true, 0, rows, beta, 5, 0, 1, StreamTag.HIDDEN,
                    out), out, "draws with " + nanRows + " rows of NaN fields");
        }
        Tile x = tile(rows, n, random, true);
        double[][] logW = new double[2][rows];
        sameBits(nativeMath, javaMath, field, m -> m.anneal(field, x, 0, rows, 0.5, 0.6, true, 5, 0, 2,
                StreamTag.HIDDEN, logW[m == javaMath ? 0 : 1], 0, out), out, "AIS draws at NaN fields");
        assertTrue(Double.isNaN(logW[1][0]), "a NaN pre-activation makes the weight NaN, not a number");
        assertArrayEquals(logW[0], logW[1]);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void nearlySaturatedDrawsAgree(int isa, int n, int h) {
        assumeTrue(CpuNative.loadError().isEmpty(), CpuNative.loadError());
        assumeTrue(isa <= CpuNative.best(), "this machine does not run " + CpuNative.name(isa));
        Rbm rbm = RandomRbm.create(n, h, 1.0, 4);
        NativeRbmMath nativeMath = new NativeRbmMath(rbm, new float[n], isa);
        JavaRbmMath javaMath = new JavaRbmMath(rbm, new float[n]);
        open.add(nativeMath);
        int rows = 64;
        SplittableRandom random = new SplittableRandom(2);
        Tile field = tile(rows, h, random, false);
        Tile out = tile(rows, h, random, true);
        // fields from -120 to 120: probabilities from 0 through the float grid's ends to 1
        for (int i = 0; i < rows * h; i++) {
            field.buffer.put(i, (float) (random.nextDouble() * 240 - 120));
        }
        float[] beta = new float[rows];
        java.util.Arrays.fill(beta, 1f);
        sameBits(nativeMath, javaMath, field, m -> m.sampleHidden(field, true, 0, rows, beta, 8, 0, 1, StreamTag.HIDDEN,
                out), out, "saturated draws");
    }
}
