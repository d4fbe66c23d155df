package org.logz.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The result records of a task as bytes, and back, to the bit: records (through their canonical constructors),
 * primitives and their boxes, strings, enums, primitive arrays, lists, maps and the {@code Optional} types.
 *
 * <p>Why not Java serialization or Kryo, which Spark offers: logz's result records hold {@code OptionalDouble}s,
 * which Java serialization refuses, and Kryo 4 (Spark 3.5's) writes objects field by field, which the JDK forbids on a
 * record's final fields. A record is its components, so it travels as them. Anything else is refused by name rather
 * than approximated.
 */
final class RecordCodec {
    private enum Tag { NULL, BOOLEAN, INT, LONG, DOUBLE, FLOAT, STRING, ENUM, DOUBLES, FLOATS, INTS, LONGS, LIST, MAP,
        OPTIONAL_DOUBLE, OPTIONAL_INT, OPTIONAL_LONG, OPTIONAL, RECORD }

    private RecordCodec() {
    }

    static byte[] encode(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(out, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Object decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            Object value = read(in);
            if (in.available() > 0) {
                throw new IllegalArgumentException(in.available() + " bytes follow the encoded value");
            }
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(DataOutputStream out, Object v) throws IOException {
        if (v == null) {
            tag(out, Tag.NULL);
        } else if (v instanceof Boolean b) {
            tag(out, Tag.BOOLEAN);
            out.writeBoolean(b);
        } else if (v instanceof Integer i) {
            tag(out, Tag.INT);
            out.writeInt(i);
        } else if (v instanceof Long l) {
            tag(out, Tag.LONG);
            out.writeLong(l);
        } else if (v instanceof Double d) {
            tag(out, Tag.DOUBLE);
            out.writeLong(Double.doubleToRawLongBits(d));
        } else if (v instanceof Float f) {
            tag(out, Tag.FLOAT);
            out.writeInt(Float.floatToRawIntBits(f));
        } else if (v instanceof String s) {
            tag(out, Tag.STRING);
            string(out, s);
        } else if (v instanceof Enum<?> e) {
            tag(out, Tag.ENUM);
            string(out, e.getDeclaringClass().getName());
            string(out, e.name());
        } else if (v instanceof double[] a) {
            tag(out, Tag.DOUBLES);
            out.writeInt(a.length);
            for (double x : a) {
                out.writeLong(Double.doubleToRawLongBits(x));
            }
        } else if (v instanceof float[] a) {
            tag(out, Tag.FLOATS);
            out.writeInt(a.length);
            for (float x : a) {
                out.writeInt(Float.floatToRawIntBits(x));
            }
        } else if (v instanceof int[] a) {
            tag(out, Tag.INTS);
            out.writeInt(a.length);
            for (int x : a) {
                out.writeInt(x);
            }
        } else if (v instanceof long[] a) {
            tag(out, Tag.LONGS);
            out.writeInt(a.length);
            for (long x : a) {
                out.writeLong(x);
            }
        } else if (v instanceof List<?> list) {
            tag(out, Tag.LIST);
            out.writeInt(list.size());
            for (Object x : list) {
                write(out, x);
            }
        } else if (v instanceof Map<?, ?> map) {
            tag(out, Tag.MAP);
            out.writeInt(map.size());
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                write(out, entry.getKey());
                write(out, entry.getValue());
            }
        } else if (v instanceof OptionalDouble o) {
            tag(out, Tag.OPTIONAL_DOUBLE);
            out.writeBoolean(o.isPresent());
            if (o.isPresent()) {
                out.writeLong(Double.doubleToRawLongBits(o.getAsDouble()));
            }
        } else if (v instanceof OptionalInt o) {
            tag(out, Tag.OPTIONAL_INT);
            out.writeBoolean(o.isPresent());
            if (o.isPresent()) {
                out.writeInt(o.getAsInt());
            }
        } else if (v instanceof OptionalLong o) {
            tag(out, Tag.OPTIONAL_LONG);
            out.writeBoolean(o.isPresent());
            if (o.isPresent()) {
                out.writeLong(o.getAsLong());
            }
        } else if (v instanceof Optional<?> o) {
            tag(out, Tag.OPTIONAL);
            write(out, o.orElse(null));
        } else if (v instanceof Record r) {
            tag(out, Tag.RECORD);
            string(out, r.getClass().getName());
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                write(out, component(r, c));
            }
        } else {
            throw new IllegalArgumentException("a task's result holds a " + v.getClass().getName()
                    + ", which is no record, primitive, string, enum, array, list, map or Optional");
        }
    }

    private static Object component(Record r, RecordComponent c) {
        try {
            c.getAccessor().setAccessible(true);
            return c.getAccessor().invoke(r);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("reading " + r.getClass().getName() + "." + c.getName(), e);
        }
    }

    private static Object read(DataInputStream in) throws IOException {
        int code = in.readUnsignedByte();
        if (code >= Tag.values().length) {
            throw new IllegalArgumentException("no value has tag " + code);
        }
        return switch (Tag.values()[code]) {
            case NULL -> null;
            case BOOLEAN -> in.readBoolean();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case DOUBLE -> Double.longBitsToDouble(in.readLong());
            case FLOAT -> Float.intBitsToFloat(in.readInt());
            case STRING -> string(in);
            case ENUM -> enumConstant(string(in), string(in));
            case DOUBLES -> {
                double[] a = new double[in.readInt()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = Double.longBitsToDouble(in.readLong());
                }
                yield a;
            }
            case FLOATS -> {
                float[] a = new float[in.readInt()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = Float.intBitsToFloat(in.readInt());
                }
                yield a;
            }
            case INTS -> {
                int[] a = new int[in.readInt()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = in.readInt();
                }
                yield a;
            }
            case LONGS -> {
                long[] a = new long[in.readInt()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = in.readLong();
                }
                yield a;
            }
            case LIST -> {
                int n = in.readInt();
                List<Object> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    list.add(read(in));
                }
                // the records copy their lists with List.copyOf, which refuses nulls: a list may hold them here
                yield Collections.unmodifiableList(list);
            }
            case MAP -> {
                int n = in.readInt();
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    map.put(read(in), read(in));
                }
                yield Collections.unmodifiableMap(map);
            }
            case OPTIONAL_DOUBLE -> in.readBoolean() ? OptionalDouble.of(Double.longBitsToDouble(in.readLong()))
                    : OptionalDouble.empty();
            case OPTIONAL_INT -> in.readBoolean() ? OptionalInt.of(in.readInt()) : OptionalInt.empty();
            case OPTIONAL_LONG -> in.readBoolean() ? OptionalLong.of(in.readLong()) : OptionalLong.empty();
            case OPTIONAL -> Optional.ofNullable(read(in));
            case RECORD -> record(in);
        };
    }

    private static Record record(DataInputStream in) throws IOException {
        Class<?> type = type(string(in));
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is no record");
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = read(in);
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return (Record) canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("rebuilding a " + type.getName(), e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Enum<?> enumConstant(String type, String name) {
        return Enum.valueOf((Class<? extends Enum>) type(type), name);
    }

    private static Class<?> type(String name) {
        try {
            return Class.forName(name, false, RecordCodec.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("no class " + name + " here: the driver and the executors run other "
                    + "logz versions", e);
        }
    }

    private static void tag(DataOutputStream out, Tag tag) throws IOException {
        out.writeByte(tag.ordinal());
    }

    /** A string as its length and UTF-8 bytes ({@code writeUTF} stops at 64 KB). */
    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String string(DataInputStream in) throws IOException {
        byte[] utf8 = new byte[in.readInt()];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
