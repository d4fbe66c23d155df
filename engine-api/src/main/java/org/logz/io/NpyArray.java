package org.logz.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.logz.base.UserException;

/**
 * One NumPy array as stored in a {@code .npy} file: element type, shape and the raw bytes. Values
 * are converted on request to C (row-major) order, whatever order the file used.
 */
public final class NpyArray {
    /** Element types logz reads. */
    public enum Kind { FLOAT, SIGNED, UNSIGNED, BOOL }

    private final String name;
    private final Kind kind;
    private final int itemSize;
    private final ByteOrder order;
    private final int[] shape;
    private final boolean fortranOrder;
    private final byte[] data;

    NpyArray(String name, Kind kind, int itemSize, ByteOrder order, int[] shape, boolean fortranOrder,
             byte[] data) {
        this.name = name;
        this.kind = kind;
        this.itemSize = itemSize;
        this.order = order;
        this.shape = shape.clone();
        this.fortranOrder = fortranOrder;
        this.data = data;
    }

    /** A little-endian float32 array in C order. */
    public static NpyArray ofFloats(String name, int[] shape, float[] values) {
        checkSize(name, shape, values.length);
        ByteBuffer buf = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(values);
        return new NpyArray(name, Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN, shape, false, buf.array());
    }

    /** A little-endian float64 array in C order. */
    public static NpyArray ofDoubles(String name, int[] shape, double[] values) {
        checkSize(name, shape, values.length);
        ByteBuffer buf = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        buf.asDoubleBuffer().put(values);
        return new NpyArray(name, Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN, shape, false, buf.array());
    }

    /** An unsigned byte array in C order. */
    public static NpyArray ofBytes(String name, int[] shape, byte[] values) {
        checkSize(name, shape, values.length);
        return new NpyArray(name, Kind.UNSIGNED, 1, ByteOrder.LITTLE_ENDIAN, shape, false, values.clone());
    }

    private static void checkSize(String name, int[] shape, int length) {
        if (elementCount(shape) != length) {
            throw new UserException(name + ": shape " + Arrays.toString(shape) + " does not hold "
                    + length + " values");
        }
    }

    /** The product of the dimensions, saturated at {@code Long.MAX_VALUE} (a hostile header cannot wrap it). */
    static long elementCount(int[] shape) {
        long n = 1;
        for (int d : shape) {
            if (d != 0 && n > Long.MAX_VALUE / d) {
                return Long.MAX_VALUE;
            }
            n *= d;
        }
        return n;
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public int itemSize() {
        return itemSize;
    }

    public int[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public int size() {
        return (int) elementCount(shape);
    }

    /** The NumPy type string, e.g. {@code <f8}. */
    public String descr() {
        char endian = itemSize == 1 ? '|' : (order == ByteOrder.LITTLE_ENDIAN ? '<' : '>');
        char code = switch (kind) {
            case FLOAT -> 'f';
            case SIGNED -> 'i';
            case UNSIGNED -> 'u';
            case BOOL -> 'b';
        };
        return "" + endian + code + itemSize;
    }

    /** Sees each value as read and the float32 it rounds to, while {@link #toFloats} converts. */
    @FunctionalInterface
    public interface FloatCheck {
        /** Element {@code index} (C order) holds {@code value}, stored as {@code rounded}. */
        void check(int index, double value, float rounded);
    }

    /** The values as float32 in C order, each shown to {@code check} first; no float64 copy of the array. */
    public float[] toFloats(FloatCheck check) {
        int n = size();
        float[] out = new float[n];
        ByteBuffer buf = ByteBuffer.wrap(data).order(order);
        for (int i = 0; i < n; i++) {
            double value = readElement(buf, i * itemSize);
            float rounded = (float) value;
            int c = cIndex(i);
            check.check(c, value, rounded);
            out[c] = rounded;
        }
        return out;
    }

    /** The values as doubles in C order (exact for every supported type up to 2^53). */
    public double[] toDoubles() {
        int n = size();
        double[] out = new double[n];
        ByteBuffer buf = ByteBuffer.wrap(data).order(order);
        for (int i = 0; i < n; i++) {
            out[cIndex(i)] = readElement(buf, i * itemSize);
        }
        return out;
    }

    /** The raw bytes of a one-byte array in C order. */
    public byte[] toBytes() {
        if (itemSize != 1) {
            throw new ModelFormatException(name + " has dtype " + descr() + ", expected a one-byte type");
        }
        if (!fortranOrder || rank() < 2) {
            return data.clone();
        }
        byte[] out = new byte[size()];
        for (int i = 0; i < out.length; i++) {
            out[cIndex(i)] = data[i];
        }
        return out;
    }

    private double readElement(ByteBuffer buf, int offset) {
        return switch (kind) {
            case FLOAT -> itemSize == 4 ? buf.getFloat(offset) : buf.getDouble(offset);
            case BOOL -> buf.get(offset) != 0 ? 1.0 : 0.0;
            case SIGNED -> switch (itemSize) {
                case 1 -> buf.get(offset);
                case 2 -> buf.getShort(offset);
                case 4 -> buf.getInt(offset);
                default -> buf.getLong(offset);
            };
            case UNSIGNED -> switch (itemSize) {
                case 1 -> buf.get(offset) & 0xFF;
                case 2 -> buf.getShort(offset) & 0xFFFF;
                case 4 -> buf.getInt(offset) & 0xFFFFFFFFL;
                default -> unsignedLong(buf.getLong(offset));
            };
        };
    }

    private static double unsignedLong(long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }

    /** Maps the storage index of element {@code i} to its C-order index. */
    private int cIndex(int storageIndex) {
        if (!fortranOrder || shape.length < 2) {
            return storageIndex;
        }
        // Fortran order: the first index varies fastest in storage.
        int rem = storageIndex;
        int c = 0;
        for (int d = 0; d < shape.length; d++) {
            c += (rem % shape[d]) * cStride(d);
            rem /= shape[d];
        }
        return c;
    }

    private int cStride(int dim) {
        int stride = 1;
        for (int e = dim + 1; e < shape.length; e++) {
            stride *= shape[e];
        }
        return stride;
    }

    byte[] rawData() {
        return data;
    }

    boolean fortranOrder() {
        return fortranOrder;
    }

    /** A shape as NumPy writes it: (3,), (2,5). */
    public static String shapeText(int[] shape) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            sb.append(shape[i]).append(shape.length == 1 ? "," : (i + 1 < shape.length ? "," : ""));
        }
        return sb.append(')').toString();
    }
}
